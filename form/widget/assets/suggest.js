// A text box's suggestions, added to the widget's script for forms with
// them (see @ext in widget.js): each is a button that puts its text in the
// box and moves the focus there, to keep typing or go on.
F.querySelectorAll('.sg button').forEach(b=>b.addEventListener('click',()=>{
var i=b.closest('.f').querySelector('input');
i.value=b.dataset.v;
i.focus()
}));
