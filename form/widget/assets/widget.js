// The widget's script: a function of the form element, which the template
// calls with document.getElementById(ID) at the end of the form. It reads
// each field the way collect reads answers, runs collect's checks with
// collect's messages, and posts the answers back. Comments, indentation and
// most line breaks are removed when the widget is rendered (minifyJS in
// assets.go): keep one statement per line, end a line with { ; or , only
// where the next line may follow directly, and never start a line with //
// inside a string. Names are short because every byte goes to a model.
(function(F){
if(!F)return;
// S is the status line; C selects a field's controls. R and X hold the
// readers and checks of the answer shapes only some forms have (rows,
// ranks), keyed by data-t; their code is added at @ext when a form needs it.
var S=F.querySelector('.st'),C='input,select,textarea',R={},X={};
// @ext
// L lists the answerable fields.
function L(){return F.querySelectorAll('.f[data-id]')}
// V is field d's answer: undefined for none, NaN for what the browser
// could not read (a half-typed number or date).
function V(d){
var t=d.dataset.t,c;
if(R[t])return R[t](d);
if(t=='m'){
c=[].map.call(d.querySelectorAll(':checked'),e=>e.value);
return c.length?c:void 0
}
if(t=='r')return(d.querySelector(':checked')||{}).value||void 0;
c=d.querySelector(C);
if(c.validity.badInput)return NaN;
if(c.value.trim())return t=='n'?+c.value:c.value
}
// K is collect's message for answer v of field d, in the person's words
// as the page says it (words.go), or ''. A field collect would refuse
// unanswered carries its message in data-r.
function K(d,v){
var t=d.dataset.t,c=d.querySelector(C),n=d.dataset.l;
if(v===void 0)return d.dataset.r||'';
if(X[t])return X[t](d,v);
if(t=='n'){
if(v!==v)return'must be a number';
if(!isFinite(v))return(v>0?'+':'-')+'Inf is not a finite number';
if(N(c.value)!=N(v+''))return c.value+' has more digits than a number keeps exactly (it would become '+v+'): write at most 15 significant digits';
if(c.min&&v<c.min)return v+' is below the minimum '+c.min;
if(c.max&&v>c.max)return v+' is above the maximum '+c.max
}
if(t=='d'){
// The date control gives YYYY-MM-DD or, half typed, nothing it can
// read; what else a browser without one lets through is no real date.
if(v!==v)return'enter a complete date';
c=new Date(v+'T00:00:00Z');
if(isNaN(c)||c.toISOString().slice(0,10)!=v)return JSON.stringify(v)+' is not a real calendar date'
}
if(n&&[...v].length>n)return'is '+[...v].length+' characters, over the limit of '+n;
return''
}
// N writes decimal text s in one canonical form (sign, significant
// digits, exponent), so that a number typed with more digits than it keeps
// is told from the number it would become, as collect tells it.
function N(s){
var m=/^(-?)(\d*)\.?(\d*)(?:e(.+))?$/i.exec(s),d=m[2]+m[3],z=d.search(/[^0]|$/);
d=d.slice(z).replace(/0+$/,'');
return d?m[1]+d+'e'+(~~m[4]+m[2].length-z):'0'
}
// E puts message m beside field d, or clears it.
function E(d,m){
d.querySelector('.x').textContent=m;
d.querySelectorAll(C).forEach(e=>m?e.setAttribute('aria-invalid',!0):e.removeAttribute('aria-invalid'))
}
// O says m on the status line (by default, what to do about field b, the
// first that failed) and moves the focus to b.
function O(b,m){
S.textContent=m||(b?'Fix the marked answers.':'');
b&&b.querySelector(C).focus()
}
// A page that embeds the widget (the local page, the MCP app) reports
// collect's problems with an elicit-problems event: detail maps field ids
// to messages, and '' to what concerns no single field.
F.addEventListener('elicit-problems',e=>{
var p=e.detail,b;
L().forEach(d=>{
var m=p[d.dataset.id]||'';
E(d,m);
b=b||m&&d
});
O(b,p[''])
});
F.addEventListener('submit',e=>{
e.preventDefault();
var a={},b,p,m,t;
L().forEach(d=>{
var v=V(d),m=K(d,v);
E(d,m);
if(m)b=b||d;
else if(v!==void 0)a[d.dataset.id]=v
});
O(b);
if(b)return;
p={__elicitation_response__:!0,form_id:F.dataset.form,title:F.dataset.title,answers:a};
// A page that sends the answers itself cancels this event.
if(!F.dispatchEvent(new CustomEvent('elicit-submit',{detail:p,cancelable:!0})))return;
m='Elicitation form submitted — parse and validate this response:\n```json\n'+JSON.stringify(p).replace(/`/g,'\\u0060')+'\n```';
// Without sendPrompt (the HTML opened on its own), the person gets the
// message to paste into the chat themselves.
if(typeof sendPrompt!='function'){
O(0,'Paste this into the chat:');
S.append(t=document.createElement('textarea'));
t.value=m;
t.readOnly=t.ariaLabel='Your answers';
return t.select()
}
sendPrompt(m);
F.querySelector('[type=submit]').disabled=!0;
O(0,'Sent.')
});
// The local page's Cancel button.
var c=F.querySelector('.cn');
c&&c.addEventListener('click',()=>F.dispatchEvent(new CustomEvent('elicit-cancel')))
})
