"""The page's stylesheet and script, served by paw itself (``/static/app.css``,
``/static/app.js``): no outside resource, no inline script (CSP ``default-src 'none'``).

The script keeps an open page current: the stream's events (``board``, ``part``, ``row``) or,
without a stream, the short poll of ``/board?parts=1`` (:func:`paw.web.parts.poll_updates`),
applied by the same code; it ages the prompts itself between events.
"""

from __future__ import annotations

CSS = """
:root{color-scheme:light dark;--bad:#c62828;--warn:#b26a00;--ok:#2e7d32;--line:#8884}
*{box-sizing:border-box}
body{font:15px/1.4 system-ui,sans-serif;margin:0 auto;padding:.75rem;max-width:64rem;
     overflow-wrap:break-word}
h1{font-size:1.2rem;margin:.2rem 0 .6rem}h2{font-size:1.05rem;margin:1rem 0 .4rem}
table{border-collapse:collapse;width:100%;font-size:.9rem}
td,th{border-bottom:1px solid var(--line);padding:.25rem .4rem;text-align:left;vertical-align:top}
.wrap{overflow-x:auto}
.card{border:1px solid var(--line);border-radius:.5rem;padding:.6rem;margin:.5rem 0}
pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:.3rem 0;padding:.4rem;
    background:#8881;border-radius:.3rem;font-size:.9rem}
.v{font-weight:600;text-transform:uppercase;font-size:.8rem;padding:.1rem .4rem;
   border-radius:.3rem;color:#fff}
.v-allow{background:var(--ok)}.v-confirm{background:var(--warn)}.v-block{background:var(--bad)}
.meta{opacity:.8;font-size:.85rem}
form{display:inline}
button{font:inherit;padding:.5rem 1rem;margin:.3rem .4rem .1rem 0;border-radius:.4rem;
       border:1px solid var(--line);min-height:2.6rem}
button.go{background:var(--ok);color:#fff}button.warn{background:var(--warn);color:#fff}
.note{font-style:italic}
.src{font-size:.8rem;padding:0 .3rem;border:1px solid var(--line);border-radius:.3rem}
.src-disagree{border-color:var(--bad);color:var(--bad);font-weight:600}
.source.disagree{color:var(--bad)}
.audit td:first-child{white-space:nowrap}
"""

JS = """
(function(){
  var board=document.getElementById('board');if(!board)return;
  var q=location.search,polling=false,skew=0;
  function tag(n){return n.cloneNode(false).outerHTML}
  function morph(a,b){
    if(a.nodeType!==b.nodeType||a.nodeName!==b.nodeName||(a.nodeType===1&&tag(a)!==tag(b))){
      a.parentNode.replaceChild(b.cloneNode(true),a);return}
    if(a.nodeType!==1){if(a.nodeValue!==b.nodeValue)a.nodeValue=b.nodeValue;return}
    kids(a,b)}
  function kids(a,b){
    var x=a.childNodes,y=b.childNodes,i;
    if(x.length!==y.length){a.innerHTML=b.innerHTML;return}
    for(i=0;i<y.length;i++)morph(x[i],y[i])}
  function clock(){
    var n=board.querySelector('[data-now]');
    if(n)skew=Number(n.getAttribute('data-now'))-Date.now()/1000}
  function show(t){
    if(t===null)return;var d=document.createElement('div');d.innerHTML=t;kids(board,d);clock()}
  function part(t){  /* "NAME\\nHTML": that one part of the board again */
    var i=t.indexOf('\\n'),el=document.getElementById('pt-'+t.slice(0,i));
    if(!el||el.parentNode!==board)return;
    var d=document.createElement('div');d.innerHTML=t.slice(i+1);kids(el,d);clock()}
  function row(t){  /* "ID\\nROW": one agent's row of the table again */
    var i=t.indexOf('\\n'),el=document.getElementById(t.slice(0,i));
    if(!el||el.nodeName!=='TR'||!board.contains(el))return;
    var b=document.createElement('tbody');b.innerHTML=t.slice(i+1);
    if(b.firstElementChild)morph(el,b.firstElementChild)}
  function age(s){s=Math.max(0,Math.floor(s));
    return s<120?s+'s':s<7200?Math.floor(s/60)+'m':Math.floor(s/3600)+'h'}
  function ages(){  /* the server sends a part again only when more than its ages changed */
    var now=Date.now()/1000+skew,a=board.querySelectorAll('.age[data-seen]'),i,t;
    for(i=0;i<a.length;i++){t=age(now-Number(a[i].getAttribute('data-seen')));
      if(a[i].textContent!==t)a[i].textContent=t}}
  clock();setInterval(ages,1000);
  var on={board:show,part:part,row:row};  /* the stream's events and the poll's: one path */
  function held(v){board.dataset.have=v}  /* the parts as the page holds them (the poll's) */
  function apply(j){  /* the poll's answer: the parts (or rows) that changed, as events */
    if(!j)return;var e=j.events||[],i;
    for(i=0;i<e.length;i++)if(on.hasOwnProperty(e[i][0]))on[e[i][0]](e[i][1]);
    held(String(j.have||''))}
  function tick(){
    var h=encodeURIComponent(board.dataset.have||'');
    fetch('/board'+(q?q+'&':'?')+'parts=1&have='+h,{credentials:'same-origin',cache:'no-store'}
    ).then(function(r){
      if(r.status===401){location.reload();return null}return r.ok?r.json():null
    }).then(apply).catch(function(){}).then(function(){setTimeout(tick,1500)});
  }
  function poll(){if(polling)return;polling=true;board.dataset.live='poll';setTimeout(tick,1500)}
  if(!window.EventSource){poll();return}
  var es=new EventSource('/events'+q),got=false;
  function ev(k){es.addEventListener(k,function(e){  /* (what the page holds: not the poll's) */
    got=true;board.dataset.live='events';held('');on[k](e.data)})}
  ev('board');ev('part');ev('row');
  es.addEventListener('signed-out',function(){es.close();location.reload()});
  es.onerror=poll;  /* the stream retries on its own; the poll covers the gap */
  setTimeout(function(){if(!got)poll()},5000);  /* a proxy that holds the stream back */
})();
"""
