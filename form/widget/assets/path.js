// Path fields, added to the widget's script for forms with one (see @ext in
// widget.js): a text box, and under it a picker over the suggested paths
// that fills the box and narrows to the paths holding what is typed.
// p: the path as typed or picked, trimmed.
R.p=d=>d.querySelector('input').value.trim()||void 0;
// A file path cannot name a directory: end in a separator, or be . or ..
X.p=(d,v)=>{
var n=d.dataset.l;
if(d.dataset.k=='file'&&/[\\/]$|(^|[\\/])\.\.?$/.test(v))return JSON.stringify(v)+' names a directory; give a file path';
if(n&&[...v].length>n)return'is '+[...v].length+' characters, over max_length '+n;
return''
};
F.querySelectorAll('.pp').forEach(u=>{
var i=u.parentNode.querySelector('input'),b=u.querySelectorAll('button');
// M marks the suggestion the box holds; with q, it shows only those
// holding q, whatever the case.
function M(q){
b.forEach(e=>{
e.setAttribute('aria-pressed',e.value==i.value.trim());
e.parentNode.hidden=!!q&&!e.value.toLowerCase().includes(q.toLowerCase())
})
}
i.addEventListener('input',()=>M(i.value.trim()));
b.forEach(e=>e.addEventListener('click',()=>{
i.value=e.value;
M();
i.focus()
}));
M()
});
