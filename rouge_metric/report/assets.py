"""The style and the script of a report page, inlined into every file (no external resource).

The script reads its data from ``<script type="application/json">`` elements (JSON escaped for that
context by :func:`rouge_metric.report.page.script_json`), puts user text into the page only through
``textContent`` and inserts as HTML only the explanation fragments made by
:func:`rouge_metric.explain.explanation_html` (which escapes every piece of user text). The
explanations travel gzip-compressed and base64-encoded and are inflated on the first click with the
browser's ``DecompressionStream`` (no request: a ``Blob`` stream, not ``fetch``)."""

CSS = """
:root{--fg:#18181b;--muted:#52525b;--line:#e4e4e7;--bg:#fff;--accent:#2563eb;--warn:#fef3c7;--warnfg:#78350f}
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;font-size:14px;color:var(--fg);background:var(--bg);line-height:1.45}
main{max-width:1120px;margin:0 auto;padding:16px}
h1{font-size:22px;margin:0 0 8px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
h3{font-size:15px;margin:18px 0 6px}
nav a{margin-right:12px;color:var(--accent);text-decoration:none}
.rm-meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;font-size:13px}
.rm-meta dt{color:var(--muted)}.rm-meta dd{margin:0;overflow-wrap:anywhere}
code,.rm-mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px}
.rm-scroll{overflow-x:auto;max-width:100%}
table.rm-t{border-collapse:collapse;margin:6px 0;font-size:13px}
table.rm-t th,table.rm-t td{border-bottom:1px solid var(--line);padding:3px 8px;text-align:right;white-space:nowrap}
table.rm-t th{background:#fafafa;font-weight:600}
table.rm-t td.l,table.rm-t th.l{text-align:left}
.rm-note{color:var(--muted);font-size:12.5px}
.rm-flag{background:var(--warn);color:var(--warnfg);padding:8px 10px;border-radius:6px}
.rm-ok{background:#ecfdf5;color:#065f46;padding:8px 10px;border-radius:6px}
svg.rm-chart{width:100%;height:auto;display:block;max-width:900px}
.rm-charts{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start}
.rm-charts>figure{margin:0;flex:1 1 420px;min-width:0}
.rm-charts>figure[data-chart=lengths]{flex:0 1 540px}.rm-charts>figure[data-chart=score-vs-length]{flex:1 1 100%}
figcaption{color:var(--muted);font-size:12.5px}
.rm-controls{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:8px 0}
.rm-controls input[type=search]{flex:1 1 220px;padding:6px 8px;font-size:14px;border:1px solid #a1a1aa;border-radius:6px}
.rm-controls button,.rm-open{padding:4px 10px;border:1px solid #a1a1aa;border-radius:6px;background:#fff;cursor:pointer;font-size:13px}
.rm-controls button:disabled{opacity:.4;cursor:default}
#rm-examples th[data-col]{cursor:pointer;user-select:none}
#rm-examples th[aria-sort=ascending]::after{content:" ▲"}#rm-examples th[aria-sort=descending]::after{content:" ▼"}
#rm-examples tbody tr.rm-row{cursor:pointer}
#rm-examples tbody tr.rm-row:hover,#rm-examples tbody tr.rm-row:focus{background:#eff6ff;outline:none}
#rm-examples td.rm-snip{text-align:left;max-width:260px;overflow:hidden;text-overflow:ellipsis}
#rm-examples tbody tr[aria-selected=true]{background:#dbeafe}
#rm-examples tbody tr.rm-has td:first-child::after{content:" ◆";color:var(--accent);font-size:10px}
#rm-detail{border:1px solid var(--line);border-radius:8px;padding:8px 12px;margin:10px 0;background:#fcfcfd;overflow-wrap:anywhere}
#rm-detail>h3{margin-top:4px}
#rm-detail .rm-explain table{display:block;overflow-x:auto;max-width:100%}#rm-detail .rm-explain th,#rm-detail .rm-explain td{white-space:nowrap}
.rm-sys{margin:6px 0 14px}.rm-sys>h4{margin:4px 0;font-size:14px}
.rm-plain{white-space:pre-wrap;overflow-wrap:anywhere;border-left:3px solid var(--line);padding-left:8px;margin:4px 0}
.rm-pos{color:#047857}.rm-neg{color:#b91c1c}
@media (max-width:600px){main{padding:10px}h1{font-size:19px}#rm-examples td.rm-snip{max-width:140px}
  .rm-charts>figure{overflow-x:auto}
  .rm-charts>figure:not([data-chart=lengths])>svg.rm-chart{min-width:640px}}
"""

JS = r"""
(function(){
"use strict";
var D=JSON.parse(document.getElementById("rm-data").textContent);
var nT=D.types.length,nS=D.systems.length;
var cols=[{key:"i",label:"#",num:true,get:function(r){return r.i;}},
          {key:"p",label:"prediction"+(nS>1?" ("+D.systems[0]+")":""),num:false},
          {key:"r",label:"reference",num:false}];
D.systems.forEach(function(s,si){D.types.forEach(function(t,ti){
  cols.push({key:"s"+si+"_"+ti,label:(nS>1?s+" · ":"")+t+" F",num:true,get:function(r){return r.s[si][ti];}});});});
for(var si=1;si<nS;si++){(function(si){D.types.forEach(function(t,ti){
  cols.push({key:"d"+si+"_"+ti,label:"Δ "+D.systems[si]+" · "+t,num:true,delta:true,
             get:function(r){return r.s[si][ti]-r.s[0][ti];}});});})(si);}
var rows=D.rows;rows.forEach(function(r){
  r.hay=(r.p.join("\n")+"\n"+r.r.join("\n")).toLowerCase();});
var state={sort:null,dir:1,q:"",page:0,size:25,open:null};
var view=rows.slice();
var table=document.getElementById("rm-examples"),thead=table.tHead,tbody=table.tBodies[0];
var qin=document.getElementById("rm-filter"),info=document.getElementById("rm-pageinfo");
var prev=document.getElementById("rm-prev"),next=document.getElementById("rm-next"),sizeSel=document.getElementById("rm-size");
function fmt(x){return x===null||x===undefined||isNaN(x)?"—":(x*100).toFixed(2);}
function head(){var tr=document.createElement("tr");cols.forEach(function(c,k){
  var th=document.createElement("th");th.textContent=c.label;th.className=c.num?"":"l";
  if(c.get){th.setAttribute("data-col",k);th.tabIndex=0;th.title="sort";
    if(state.sort===k){th.setAttribute("aria-sort",state.dir>0?"ascending":"descending");}}
  tr.appendChild(th);});thead.textContent="";thead.appendChild(tr);}
function apply(){
  var q=state.q.trim().toLowerCase(),m=/^#(\d+)$/.exec(q);
  view=rows.filter(function(r){return m?r.i===+m[1]:(!q||r.hay.indexOf(q)>=0);});
  if(state.sort!==null){var g=cols[state.sort].get,d=state.dir;
    view.sort(function(a,b){var x=g(a),y=g(b);return x<y?-d:x>y?d:a.i-b.i;});}
}
function render(){
  var pages=Math.max(1,Math.ceil(view.length/state.size));if(state.page>=pages)state.page=pages-1;
  var a=state.page*state.size,b=Math.min(view.length,a+state.size);tbody.textContent="";
  for(var k=a;k<b;k++){var r=view[k],tr=document.createElement("tr");tr.className="rm-row";tr.tabIndex=0;
    tr.setAttribute("data-index",r.i);if(r.x.indexOf(0)>=0)tr.classList.add("rm-has");
    cols.forEach(function(c){var td=document.createElement("td");
      if(c.key==="p"){td.className="rm-snip";td.textContent=r.p[0];}
      else if(c.key==="r"){td.className="rm-snip";td.textContent=r.r[0];}
      else if(c.key==="i"){td.textContent=r.i;}
      else{var v=c.get(r);td.textContent=(c.delta&&v>0?"+":"")+fmt(v);if(c.delta)td.className=v>0?"rm-pos":v<0?"rm-neg":"";}
      tr.appendChild(td);});
    if(state.open===r.i){tr.setAttribute("aria-selected","true");}
    tbody.appendChild(tr);}
  info.textContent=view.length?("rows "+(a+1)+"–"+b+" of "+view.length+(view.length<rows.length?" (filtered from "+rows.length+")":"")+" · page "+(state.page+1)+" of "+pages):"no example matches the filter";
  prev.disabled=state.page===0;next.disabled=state.page>=pages-1;head();
}
var EX=null,exErr=null,exWait=[];
function explanations(cb){
  if(EX||exErr){cb();return;}exWait.push(cb);if(exWait.length>1)return;
  var el=document.getElementById("rm-explanations");
  function done(){var w=exWait;exWait=[];w.forEach(function(f){f();});}
  if(!el){EX=[];done();return;}
  try{var bin=atob(el.textContent.trim()),u=new Uint8Array(bin.length);for(var k=0;k<bin.length;k++)u[k]=bin.charCodeAt(k);
    var st=new Blob([u]).stream().pipeThrough(new DecompressionStream("gzip"));
    new Response(st).text().then(function(t){EX=JSON.parse(t);done();},function(e){exErr=String(e);done();});
  }catch(e){exErr=String(e);done();}
}
function plain(txt,cls){var d=document.createElement("div");d.className="rm-plain"+(cls?" "+cls:"");d.textContent=txt;return d;}
var WHY={1:"explanation not embedded: a text of this example is longer than "+D.explainChars+" characters",
         2:"explanation not embedded: the file's explanation budget ("+D.explainBudget+") is spent",
         3:"explanation not embedded: "+D.explainRule};
var panel=document.getElementById("rm-detail");
function detail(r){
  var td=panel;td.textContent="";td.hidden=false;
  var h=document.createElement("h3");
  h.textContent="example #"+r.i+(r.cut?" · a text is cut at "+D.textChars+" characters in this display (the scores use the full text)":"")+
    (r.more?" · "+r.more+" more reference(s) not shown":"");
  td.appendChild(h);
  var body=document.createElement("div");body.textContent="loading the explanation…";td.appendChild(body);
  explanations(function(){body.textContent="";
    D.systems.forEach(function(s,si){var box=document.createElement("div");box.className="rm-sys";box.setAttribute("data-system",si);
      var t=document.createElement("h4");t.textContent=s;box.appendChild(t);
      var frag=EX&&EX[r.k]?EX[r.k][si]:null;
      if(frag){var holder=document.createElement("div");holder.innerHTML=frag;box.appendChild(holder);}
      else{box.appendChild(plain(exErr?"explanations cannot be shown in this browser: "+exErr:WHY[r.x[si]]||WHY[3],"rm-note"));
        box.appendChild(plain("prediction: "+r.p[si]));r.r.forEach(function(x,j){box.appendChild(plain("reference "+(j+1)+": "+x));});}
      body.appendChild(box);});});
}
function byIndex(i){for(var k=0;k<rows.length;k++){if(rows[k].i===i)return rows[k];}return null;}
function show(i){state.open=i;var r=byIndex(i);if(r){detail(r);}else{panel.hidden=true;}render();
  if(r)panel.scrollIntoView({block:"start"});}
thead.addEventListener("click",function(e){var th=e.target.closest("th[data-col]");if(!th)return;var k=+th.getAttribute("data-col");
  if(state.sort===k){state.dir=-state.dir;}else{state.sort=k;state.dir=cols[k].key==="i"?1:-1;}state.page=0;apply();render();});
thead.addEventListener("keydown",function(e){if(e.key==="Enter"){var th=e.target.closest("th[data-col]");if(th)th.click();}});
function toggle(tr){show(+tr.getAttribute("data-index"));}
tbody.addEventListener("click",function(e){var tr=e.target.closest("tr.rm-row");if(tr)toggle(tr);});
tbody.addEventListener("keydown",function(e){if(e.key==="Enter"||e.key===" "){var tr=e.target.closest("tr.rm-row");if(tr){e.preventDefault();toggle(tr);}}});
var timer=null;qin.addEventListener("input",function(){clearTimeout(timer);timer=setTimeout(function(){state.q=qin.value;state.page=0;apply();render();},120);});
prev.addEventListener("click",function(){state.page--;render();});
next.addEventListener("click",function(){state.page++;render();});
sizeSel.addEventListener("change",function(){state.size=+sizeSel.value;state.page=0;render();});
document.addEventListener("click",function(e){var b=e.target.closest("button.rm-open");if(!b)return;
  var i=+b.getAttribute("data-example");qin.value="#"+i;state.q=qin.value;state.page=0;apply();show(i);});
apply();render();
document.documentElement.setAttribute("data-ready","true");
})();
"""
