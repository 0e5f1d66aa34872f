package form

import "testing"

func TestSummary(t *testing.T) {
	f := mustParse(t, testForms(t)["six"])
	r, err := Collect(f, map[string]any{
		"platforms": []any{"linux", "macos"},
		"budget":    2.5,
		"ship_date": "2026-12-01",
		"notes":     "Use *bold* claims\nand [links](x) <b>sparingly</b> | ok_done",
	}, fixedCollectOptions())
	if err != nil {
		t.Fatal(err)
	}
	want := `**Release plan** — answered (resp-20261130-070809-deadbeef)
- Which release track?: **stable**
- Which platforms ship?: **linux, macos**
- Announce on the mailing list?: **Yes**
- How many hours may it take?: **2.5**
- When should it ship?: **2026-12-01**
- Anything the release notes must say?: **Use \*bold\* claims / and \[links\](x) \<b\>sparingly\</b\> \| ok\_done**
`
	if got := Summary(f, r); got != want {
		t.Errorf("Summary =\n%s\nwant\n%s", got, want)
	}
}
