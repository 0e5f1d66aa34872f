// Rows and ranks, added to the widget's script for forms with a triage
// board, an assumption review or a ranking (see @ext in widget.js).
// g: {row key: ruling}, an assumption's edit as {edit: text}.
R.g=d=>{
var a={},n=0;
d.querySelectorAll('.rw').forEach(r=>{
var c=r.querySelector(':checked');
if(c&&c.value){
n++;
a[r.dataset.k]=c.value=='edit'?{edit:r.querySelector('.ed').value}:c.value
}
});
return n?a:void 0
};
// A blank edit is refused, and a required board needs every row (named by
// its label, as the page's words.go names it).
X.g=(d,v)=>{
var m=[],e=[];
d.querySelectorAll('.rw').forEach(r=>{
var k=r.dataset.k,x=v[k];
if(x===void 0)m.push('“'+r.querySelector('legend').firstChild.textContent+'”');
else if(x.edit!==void 0&&!x.edit.trim())e.push('type the corrected assumption for “'+r.querySelector('legend').firstChild.textContent+'”, or pick Accept or Reject')
});
if(m.length&&d.dataset.r)e.push('Give a ruling for '+m.join(', ')+'.');
return e.join('; ')
};
// k: the options chosen in the rank slots, best first.
R.k=d=>{
var o=[].map.call(d.querySelectorAll('select'),s=>s.value).filter(String);
return o.length?o:void 0
};
X.k=(d,v)=>{
var n=d.querySelectorAll('select').length,r=v.filter((x,i)=>v.indexOf(x)<i),m=[];
if(r.length)m.push('ranks '+r.map(x=>JSON.stringify(x)).join(', ')+' more than once');
if(v.length!=n)m.push('ranks '+v.length+' option(s); rank exactly '+n+' ('+d.dataset.w+')');
return m.join('; ')
};
