(()=>{var ve,ka,Ec,an,jl,Jo,Ca,Yo,Ea,Yl,Gl,Ac,vo=Symbol.for("pv"),Qo={},Zo=[],Tc=/^m(i|n|o|s|text|space)$/,Kl=Array.isArray,ql=Zo.slice,Sn=Object.assign;function wn(e){e&&e.parentNode&&e.remove()}function Aa(e,t,o){var n,l,r,a={},c=arguments.length;for(r in t)r=="key"?n=t[r]:r=="ref"&&typeof e!="function"?l=t[r]:a[r]=t[r];return c>2&&(a.children=c>3?ql.call(arguments,2):o),bo(e,a,n,l,null)}function bo(e,t,o,n,l){var r={type:e,props:t,key:o,ref:n,__k:null,__:null,__b:0,__e:null,__c:null,constructor:vo,__v:l||++ka,__i:-1,__u:0};return!l&&ve.vnode&&ve.vnode(r),r}function Xo(e){return e.children}function Ko(e,t){this.props=e,this.context=t,this.__g=0}function sn(e,t){if(t==null)return e.__&&sn(e.__,e.__i+1);for(var o;t<e.__k.length;t++)if((o=e.__k[t])&&o.__e)return o.__e;return typeof e.type!="function"||e.props.__P?null:sn(e)}function Pc(e){var t,o=e.__v,n=o.__e,l=[],r=[],a=e.__P;a&&((t=Sn({constructor:vo},o)).__v=o.__v+1,ve.vnode&&ve.vnode(t),Jl(a,t,o,e.__n,a.namespaceURI,32&o.__u?[n]:null,l,n||sn(o),32&o.__u,r),t.__v=o.__v,t.__.__k[t.__i]=t,Ma(l,t,r),o.__=o.__e=null,t.__e!=n&&Ta(t))}function Ta(e){if((e=e.__)&&e.__c&&!e.props.__P)return e.__e=null,e.__k.some(function(t){return t&&(e.__e=t.__e)}),Ta(e)}function Sa(e){(8&e.__g||(e.__g|=8,an.push(e),Jo++))&&jl==ve.debounceRendering||((jl=ve.debounceRendering)||queueMicrotask)(Pa)}function Pa(){try{for(var e,t=1;an.length;)an.length>t&&an.sort(Ca),e=an.shift(),t=an.length,8&e.__g&&Pc(e)}finally{(Jo=an.length)&&(jl||queueMicrotask)(Pa)}}function Da(e,t,o,n,l,r,a,c,u,m,$){var f,g,_,S,k,y,D=n.__k||Zo,w=t.length;for(u=Dc(o,t,D,u,w),f=0;f<w;f++)(_=o.__k[f])!=null&&(g=~_.__i&&D[_.__i]||Qo,_.__i=f,y=Jl(e,_,g,l,r,a,c,u,m,$),S=_.__e,(g.ref!=_.ref||8&g.__u)&&(g.ref&&Ql(g.ref,null,_,g),_.ref&&$.push(_.ref,_.__c||S,_)),k=k||S,4&_.__u?(u=La(_,u,e,!g.__v),g.__e&&(g.__e=null)):typeof _.type=="function"&&y!==void 0?u=y:S&&(u=S.nextSibling),_.__u&=-21);return o.__e=k,u}function Dc(e,t,o,n,l){var r,a,c,u,m,$,f,g,_,S=o.length,k=S,y=0,D=0,w=e.__k=Array(l);for(r=0;r<l;r++)(a=t[r])!=null&&typeof a!="boolean"&&typeof a!="function"?(typeof a!="object"||a.constructor===String?a=w[r]=bo(null,a):Kl(a)?a=w[r]=bo(Xo,{children:a}):a.constructor===vo&&a.__b?a=w[r]=bo(a.type,a.props,a.key,a.ref,a.__v):w[r]=a,u=r+y,a.__=e,a.__b=e.__b+1,c=null,~(m=a.__i=Lc(a,o,u,k))&&(k--,(c=o[m])&&(c.__u|=2)),c&&c.__v?(a.__u|=16,m==u-1?y--:m==u+1?y++:m!=u&&(m>u?y--:y++,D=1)):(~m||(l>S?y--:l<S&&y++),typeof a.type!="function"&&(a.__u|=4))):w[r]=null;if(D){for($=[],f=[],r=0;r<l;r++)if((a=w[r])&&16&a.__u){for(y=0,g=$.length;y<g;)$[_=y+g>>1]<a.__i?y=_+1:g=_;$[y]=a.__i,f[r]=y+1}for(y=$.length;r--;)f[r]&&(f[r]==y?y--:w[r].__u|=4)}if(k)for(r=0;r<S;r++)!(c=o[r])||2&c.__u||(c.__e==n&&(n=sn(c)),Zl(c,c));return n}function La(e,t,o,n){var l,r,a,c;if(typeof e.type=="function"){if(e.props.__P)return t;if(l=e.__k)for(r=0;r<l.length;r++)l[r]&&(l[r].__=e,t=La(l[r],t,o,!1));return t}for(t&&!t.parentNode&&(t=sn(e))&&!t.parentNode&&(t=null),a=e.__e,c=t;c&&c.nodeType==8;)c=c.nextSibling;for(a!=c&&(!n&&o.moveBefore&&a.parentNode?o.moveBefore(a,t):o.insertBefore(a,t||null)),t=a;(t=t&&t.nextSibling)&&t.nodeType==8&&!t.data.startsWith("$s"););return t}function Lc(e,t,o,n){var l,r=e.key,a=e.type,c=t[o],u=c&&!(2&c.__u);if(c===null&&r==null||u&&r==c.key&&a==c.type)return o;if(n>(u?1:0)){for(l=o-1;l>=0;l--)if((c=t[l])&&!(2&c.__u)&&r==c.key&&a==c.type)return l;for(l=o+1;l<t.length;l++)if((c=t[l])&&!(2&c.__u)&&r==c.key&&a==c.type)return l}return-1}function xa(e,t,o){o==null&&(o=""),t[0]=="-"?e.setProperty(t,o):e[t]=o}function Go(e,t,o,n,l){var r,a;if(t=="style")if(typeof o=="string")e.style.cssText=o;else{if(typeof n=="string"&&(e.style.cssText=n=""),n)for(t in n)o&&t in o||xa(e.style,t);if(o)for(t in o)n&&o[t]==n[t]||xa(e.style,t,o[t])}else if(t[0]=="o"&&t[1]=="n")typeof o!="function"&&(o=null),typeof n!="function"&&(n=null),(e.__e||(e.__e={}))[t]=o,o&&n||(a=Gl[t]||(Gl[t]=Ic(t)),(e.__a||(e.__a={}))[t]=Yl,r=t!=(t=t.replace(Ea,"$1")),(t=t.slice(2))[0]<"a"&&(t=t.toLowerCase()),o?e.addEventListener(t,a,r):e.removeEventListener(t,a,r));else{if(l=="http://www.w3.org/2000/svg")t=t.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(t!="width"&&t!="height"&&t!="href"&&t!="list"&&t!="form"&&t!="tabIndex"&&t!="download"&&t!="rowSpan"&&t!="colSpan"&&t!="role"&&t!="popover"&&t in e)try{return void(e[t]=o??"")}catch{}if(typeof o=="function")return;o==null||o===!1&&t[4]!="-"?e.removeAttribute(t):e.setAttribute(t,t=="popover"&&o==1?"":o)}}function Ic(e){return function(t){var o=this.__e;if(o){if(o=o[e],t[Yo]==null)t[Yo]=Yl++;else if(t[Yo]<this.__a[e])return;return o(ve.event?ve.event(t):t)}}}function Jl(e,t,o,n,l,r,a,c,u,m){var $,f,g,_,S,k,y,D,w,E,C,q,N,J,B,Z,W,P,j=t.type;if(t.constructor!==vo)return null;128&o.__u&&(u=32&o.__u,$=o.__c.__z)&&(t.__u|=u,f=r=[],$.nodeType==8?c=qo($,r):r.push($),c=r[0]||c),($=ve.__b)&&$(t);e:if(typeof j=="function"){g=a.length;try{if(D=t.props,w=($=j.prototype)&&$.render,E=($=j.contextType)&&n[$.__c],C=$?E?E.props.value:$.__:n,(_=o.__c)?(t.__c=_,2&_.__g&&(_.__g|=1)):(w?t.__c=_=new j(D,C):(t.__c=_=new Ko(D,C),_.constructor=j,_.render=Rc),E&&E.sub(_),_.state||(_.state={}),_.__n=n,_.__g|=8,_.__h=[],_.__k=[]),w&&(_.__s||(_.__s=_.state),j.getDerivedStateFromProps&&(_.__s==_.state&&(_.__s=Sn({},_.__s)),Sn(_.__s,j.getDerivedStateFromProps(D,_.__s)))),S=_.props,k=_.state,_.__v=t,o.__c){if(D!==S&&w&&!j.getDerivedStateFromProps&&_.componentWillReceiveProps&&_.componentWillReceiveProps(D,C),t.__v==o.__v&&!(8&_.__g)||!(4&_.__g)&&_.shouldComponentUpdate&&_.shouldComponentUpdate(D,_.__s,C)===!1){t.__v!=o.__v&&(_.props=D,_.state=_.__s,_.__g&=-9),t.__e=o.__e,t.__k=o.__k,t.__k.some(function(I){I&&(I.__=t)}),Zo.push.apply(_.__h,_.__k),_.__k=[],_.__h.length&&a.push(_),c=sn(o);break e}_.componentWillUpdate&&_.componentWillUpdate(D,_.__s,C),w&&_.componentDidUpdate&&_.__h.push(function(){_.componentDidUpdate(S,k,y)})}else w&&!j.getDerivedStateFromProps&&_.componentWillMount&&_.componentWillMount(),w&&_.componentDidMount&&_.__h.push(_.componentDidMount);_.context=C,_.props=D,_.__P=e,_.__g&=-5,q=ve.__r,N=w?25:0;do _.__g&=-9,q&&q(t),$=_.render(_.props,_.state=_.__s,_.context);while(8&_.__g&&++N<25);w&&(Zo.push.apply(_.__h,_.__k),_.__k=[]),_.state=_.__s,_.getChildContext&&(n=Sn({},n,_.getChildContext())),w&&o.__c&&_.getSnapshotBeforeUpdate&&(y=_.getSnapshotBeforeUpdate(S,k)),J=$&&$.type===Xo&&$.key==null?$.props.children:$,D.__P&&($=c,l=(e=D.__P).namespaceURI,u=r=null,o.props&&o.props.__P!=e&&(o.__k.some(function(I){I&&Zl(I,I)}),o.__k=null),c=o.__k?sn(o,0):null),c=Da(e,Kl(J)?J:[J],t,o,n,l,r,a,c,u,m),D.__P&&(t.__e=null,c=$),t.__u&=-161,f&&f.some(wn),_.__h.length&&a.push(_),1&_.__g&&(_.__g&=-4)}catch(I){if(a.length=g,t.__v=null,u||r)if(I&&I.then){if(t.__u|=128|u,r){for(~(W=r.indexOf(c||void 0))||(W=r.length);(P=r[W-1])&&P.nodeType==8;)W--;for(;W<r.length;W++)if(P=r[W])if(r[W]=null,B){if(P==Z)break}else{if(P.nodeType!=8)break;P.data.startsWith("$s")&&(Z=qo(B=P))}}if(!B){for(;c&&c.nodeType==8&&c.nextSibling;)c=c.nextSibling;B=c}($=qo(B=t.__c.__z||(t.__c.__z=B)))?(t.__e=B,c=$):t.__e=c,c=c&&c.nextSibling}else r&&r.some(wn);else t.__e=o.__e;t.__k||(t.__k=o.__k||[]),I&&I.then||Ia(t),ve.__e(I,t,o)}}else c=t.__e=Mc(o.__e,t,o,n,l,r,a,u,m,e);return($=ve.diffed)&&$(t),c}function qo(e,t){if(e&&e.nodeType==8&&e.data.startsWith("$s"))for(var o=1;e=e.nextSibling;){if(e.nodeType==8){if(e.data.startsWith("$s"))o++;else if(e.data.startsWith("/$s")&&!--o)return e}t&&t.push(e)}}function Ia(e){e&&(e.__c&&(e.__c.__g|=4),e.__k&&e.__k.some(Ia))}function Ma(e,t,o){for(var n=0;n<o.length;)Ql(o[n++],o[n++],o[n++]);ve.__c&&ve.__c(t,e),e.some(function(l){try{e=l.__h,l.__h=[],e.some(function(r){r.call(l)})}catch(r){ve.__e(r,l.__v)}})}function Mc(e,t,o,n,l,r,a,c,u,m){var $,f,g,_,S,k,y,D,w=o.props||Qo,E=t.props,C=t.type;if(C=="svg"?l="http://www.w3.org/2000/svg":C=="math"?l="http://www.w3.org/1998/Math/MathML":l||(l="http://www.w3.org/1999/xhtml"),r){for($=0;$<r.length;$++)if((S=r[$])&&(C?S.localName==C:S.nodeType==3)){e=S,r[$]=null;break}}if(!e){if(D=m.ownerDocument||document,!C)return D.createTextNode(E);e=D.createElementNS(l,C,E.is?E:m),c&&(ve.__m&&ve.__m(t,r),c=!1),r=null}if(C){if(m=C=="template"&&e.content||e,r=C=="textarea"&&E.defaultValue!=null?null:r&&ql.call(m.childNodes),!c&&r)for(w={},$=0;$<e.attributes.length;$++)w[(S=e.attributes[$]).name]=S.value;for($ in w)S=w[$],$=="dangerouslySetInnerHTML"?g=S:$=="children"||$ in E||$=="value"&&"defaultValue"in E||$=="checked"&&"defaultChecked"in E||Go(e,$,null,S,l);for($ in E)S=E[$],$=="children"?_=S:$=="dangerouslySetInnerHTML"?f=S:$=="value"?k=S:$=="checked"?y=S:c&&typeof S!="function"||w[$]===S||Go(e,$,S,w[$],l);f?(c||g&&(f.__html==g.__html||f.__html==e.innerHTML)||(e.innerHTML=f.__html),t.__k=[]):(g&&(e.textContent=""),(C=="foreignObject"||l=="http://www.w3.org/1998/Math/MathML"&&Tc.test(C))&&(l="http://www.w3.org/1999/xhtml"),Da(m,Kl(_)?_:[_],t,o,n,l,r,a,r?r[0]:o.__k&&sn(o,0),c,u),r&&r.some(wn)),c&&C!="textarea"||($="value",C=="progress"&&k==null?e.removeAttribute($):k==null||k===e[$]&&(C!="progress"||k)||Go(e,$,k,w[$],l),$="checked",y!=null&&y!=e[$]&&Go(e,$,y,w[$],l))}else w===E||c&&e.data==E||(e.data=E);return e}function Ql(e,t,o,n){try{typeof e=="function"?t?t.__x=e(t)||1:n&&(n=n.__c||n.__e)&&(t=n.__x)&&(n.__x=null,typeof t=="function"?t():e(null)):e.current=t}catch(l){ve.__e(l,o)}}function Zl(e,t,o){var n,l,r,a;if(ve.unmount&&ve.unmount(e),!(n=e.ref)||n.current&&n.current!=e.__e||Ql(n,null,t,e),n=e.__c){if(n.componentWillUnmount)try{n.componentWillUnmount()}catch(c){ve.__e(c,t)}n.__P=n.__n=null}if(n=e.__k)for(a=0;a<n.length;a++)n[a]&&Zl(n[a],t,typeof e.type!="function"||o&&!e.props.__P);!o&&(n=e.__c)&&(n=n.__z)&&(l=qo(n,r=[]))&&(n==e.__e&&r.some(wn),wn(l),wn(n)),o||wn(e.__e),e.__e=e.__c=e.__=null}function Rc(e,t,o){return this.constructor(e,o)}function Ra(e,t){var o,n,l,r;ve.__&&ve.__(e,t),t.nodeType==9&&(t=t.documentElement),n=(o=e&&32&e.__u)?null:t.__k,t.__k=bo(Xo,{children:[e]}),l=[],r=[],Jl(t,t.__k,n||Qo,Qo,t.namespaceURI,n?null:t.firstChild?ql.call(t.childNodes):null,l,n?n.__e:t.firstChild,o,r),Ma(l,t.__k,r),t.__k.props.children=null}ve={__e:function(e,t,o,n){for(var l,r,a;t=t.__;)if((l=t.__c)&&!(1&l.__g)){l.__g|=4;try{if((a=(r=l.constructor)&&r.getDerivedStateFromError)&&l.setState(r.getDerivedStateFromError(e)),l.componentDidCatch&&(l.componentDidCatch(e,n||{}),a=1),a&&8&l.__g)return void(l.__g|=2)}catch(c){e=c}}throw Jo=0,e}},ka=0,Ec=function(e){return e!=null&&e.constructor===vo},Ko.prototype.setState=function(e,t){var o=this.__s;o&&o!=this.state||(o=this.__s=Sn({},this.state)),typeof e=="function"&&(e=e(Sn({},o),this.props)),e&&(Sn(o,e),this.__v&&(t&&this.__k.push(t),Sa(this)))},Ko.prototype.forceUpdate=function(e){this.__v&&(this.__g|=4,e&&this.__h.push(e),Sa(this))},Ko.prototype.render=Xo,an=[],Jo=0,Ca=function(e,t){return e.__v.__b-t.__v.__b},Yo=Symbol(),Ea=/(PointerCapture)$|Capture$/i,Yl=0,Gl={},Ac=0;var wo,ze,Xl,Na,er=Object.is,So=0,ja=[],tr=[],Re=ve,Oa=Re.__b,Fa=Re.__r,Va=Re.diffed,za=Re.__c,Ha=Re.unmount,Ua=Re.__;function or(e,t){Re.__h&&Re.__h(ze,e,So||t),So=0;var o=ze.__H||(ze.__H={__:[],__h:[]});return e>=o.__.length&&o.__.push({}),o.__[e]}function F(e){return So=1,Nc(Ka,e)}function Nc(e,t,o){var n=or(wo++,2);if(n.t=e,!n.__c&&(n.__=[o?o(t):Ka(void 0,t),function(r){var a=(n.__N||n.__)[0],c=n.t(a,r);er(a,c)||(n.__N=[c,n.__[1]],n.__c.setState({}))}],n.__c=ze,!ze.__f)){ze.__f=!0;var l=ze.shouldComponentUpdate;ze.shouldComponentUpdate=function(r,a,c){var u=this.__H;if(!u)return!0;var m=!1,$=this.props!=r;if(u.__.some(function(g){g.__N&&(m=!0,er(g.__[0],g.__N[0])||($=!0))}),l){var f=l.call(this,r,a,c);return m?f||$:f}return!m||$}}return n.__}function Ut(e,t){var o=or(wo++,3);!Re.__s&&Ya(o.__H,t)&&(o.__P=!0,o.__=e,o.u=t,ze.__H.__h.push(o))}function Wt(e){return So=5,Ga(function(){return{current:e}},[])}function Ga(e,t){var o=or(wo++,7);return Ya(o.__H,t)&&(o.__=e(),o.__H=t),o.__}function lr(e,t){return So=8,Ga(function(){return e},t)}function Oc(){var e;do{for(;e=tr.shift();)try{yo(e)}catch(o){Re.__e(o,{__:(e=e.__P)&&e.__v})}for(;e=ja.shift();){var t=e.__H;if(e.__P&&t)try{t.__h.some(yo),t.__h.some(nr),t.__h=[]}catch(o){t.__h=[],Re.__e(o,e.__v)}}}while(tr.length)}Re.__b=function(e){ze=null,Oa&&Oa(e)},Re.__=function(e,t){e&&t.__k&&t.__k.__m&&(e.__m=t.__k.__m),Ua&&Ua(e,t)},Re.__r=function(e){Fa&&Fa(e),wo=0;var t=(ze=e.__c).__H;t&&(Xl==ze?ze.__h=[]:(t.__h.some(yo),t.__h.some(nr),wo=0),t.__h=[],t.__.some(function(o){o.__N&&(o.__=o.__N),o.u=o.__N=void 0})),Xl=ze},Re.diffed=function(e){Va&&Va(e);var t=e.__c;t&&t.__H&&(t.__H.__h.length&&Ba(ja.push(t)),t.__H.__.some(function(o){o.u&&(o.__H=o.u)})),Xl=ze=null},Re.__c=function(e,t){t.some(function(o){try{o.__h.some(yo),o.__h=o.__h.filter(function(n){return!n.__||nr(n)})}catch(n){o.__h=[function(){throw n}]}}),za&&za(e,t)},Re.unmount=function(e){Ha&&Ha(e);var t,o,n=e.__c;n&&n.__H&&(n.__H.__.some(function(l){try{if(l.__P&&l.__c){if(o===void 0){for(o=e.__;o&&(!o.__c||!o.__c.__P);)o=o.__;o=o&&o.__c}l.__P=o,Ba(tr.push(l))}else yo(l)}catch(r){t=r}}),n.__H=void 0,t&&Re.__e(t,n.__v))};var Wa=typeof requestAnimationFrame=="function";function Fc(e){var t,o=function(){clearTimeout(n),Wa&&cancelAnimationFrame(t),setTimeout(e)},n=setTimeout(o,35);Wa&&(t=requestAnimationFrame(o))}function Ba(e){e!=1&&Na==Re.requestAnimationFrame||((Na=Re.requestAnimationFrame)||Fc)(Oc)}function yo(e){var t=ze,o=e.__c;typeof o=="function"&&(e.__c=void 0,o()),ze=t}function nr(e){var t=ze;e.__c=e.__(),ze=t}function Ya(e,t){return!e||e.length!=t.length||t.some(function(o,n){return!er(o,e[n])})}function Ka(e,t){return typeof t=="function"?t(e):t}var rr="pixgate.operatorToken",qa="/admin/v1";function xo(){return sessionStorage.getItem(rr)}function Ja(e){sessionStorage.setItem(rr,e)}function el(){sessionStorage.removeItem(rr)}var ct=class extends Error{constructor(t,o,n,l){super(n),this.status=t,this.code=o,this.field=l}},ar=()=>{};function Qa(e){ar=e}async function Jt(e,t,{body:o,query:n,token:l,contentType:r}={}){let a=l??xo(),c={Accept:"application/json"};a&&(c.Authorization=`Bearer ${a}`);let u;o instanceof Blob||o instanceof ArrayBuffer?(c["Content-Type"]=r??"application/octet-stream",u=o):o!==void 0&&(c["Content-Type"]="application/json",u=JSON.stringify(o));let m=qa+t;if(n){let _=new URLSearchParams;for(let[k,y]of Object.entries(n))y!=null&&y!==""&&_.set(k,y);let S=_.toString();S&&(m+=`?${S}`)}let $;try{$=await fetch(m,{method:e,headers:c,body:u,credentials:"omit",cache:"no-store"})}catch(_){throw new ct(0,"network_error",`The admin API did not answer (${_.message}).`)}let f=null,g=await $.text();if(g)try{f=JSON.parse(g)}catch{f=null}if(!$.ok){let _=f?.error??{},S=new ct($.status,_.code??`http_${$.status}`,_.message??`${$.status} ${$.statusText}`,_.field);throw $.status===401&&l===void 0&&ar(S),S}return f?.data??f}async function Za(e,t){let o={Accept:"application/x-ndjson","Content-Type":"application/json"},n=xo();n&&(o.Authorization=`Bearer ${n}`);let l;try{l=await fetch(`${qa}/replays`,{method:"POST",headers:o,body:JSON.stringify(e),credentials:"omit",cache:"no-store"})}catch(c){throw new ct(0,"network_error",`The admin API did not answer (${c.message}).`)}if(!l.ok||!l.headers.get("content-type")?.startsWith("application/x-ndjson")){let u=(await l.json().catch(()=>null))?.error??{},m=new ct(l.status,u.code??`http_${l.status}`,u.message??`${l.status} ${l.statusText}`,u.field);throw l.status===401&&ar(m),m}let r=l.body.pipeThrough(new TextDecoderStream).getReader(),a="";for(;;){let{value:c,done:u}=await r.read();if(u)break;a+=c;let m;for(;(m=a.indexOf(`
`))>=0;){let $=JSON.parse(a.slice(0,m));if(a=a.slice(m+1),$.progress)t($.progress);else{if($.success)return $.data;throw new ct(200,$.error?.code??"replay_failed",$.error?.message??"The replay failed.")}}}throw new ct(0,"network_error","The replay ended before its report.")}var oe=(e,t)=>Jt("GET",e,{query:t}),Bt=(e,t)=>Jt("POST",e,{body:t??{}}),ko=(e,t)=>Jt("PUT",e,{body:t}),Co=e=>Jt("DELETE",e);async function jt(e,t,o,n=1e3){let l=[],r;for(;;){let a=await oe(e,{...t,limit:100,after:r});if(l.push(...a),a.length<100||l.length>=n)return l;r=o(a[a.length-1])}}async function sr(e){return Jt("GET","/operators/me",{token:e})}var es=function(e,t,o,n){var l;t[0]=0;for(var r=1;r<t.length;r++){var a=t[r++],c=t[r]?(t[0]|=a?1:2,o[t[r++]]):t[++r];a===3?n[0]=c:a===4?n[1]=Object.assign(n[1]||{},c):a===5?(n[1]=n[1]||{})[t[++r]]=c:a===6?n[1][t[++r]]+=c+"":a?(l=e.apply(c,es(e,c,o,["",null])),n.push(l),c[0]?t[0]|=2:(t[r-2]=0,t[r]=l)):n.push(c)}return n},Xa=new Map;function ts(e){var t=Xa.get(this);return t||(t=new Map,Xa.set(this,t)),(t=es(this,t.get(e)||(t.set(e,t=(function(o){for(var n,l,r=1,a="",c="",u=[0],m=function(g){r===1&&(g||(a=a.replace(/^\s*\n\s*|\s*\n\s*$/g,"")))?u.push(0,g,a):r===3&&(g||a)?(u.push(3,g,a),r=2):r===2&&a==="..."&&g?u.push(4,g,0):r===2&&a&&!g?u.push(5,0,!0,a):r>=5&&((a||!g&&r===5)&&(u.push(r,0,a,l),r=6),g&&(u.push(r,g,0,l),r=6)),a=""},$=0;$<o.length;$++){$&&(r===1&&m(),m($));for(var f=0;f<o[$].length;f++)n=o[$][f],r===1?n==="<"?(m(),u=[u],r=3):a+=n:r===4?a==="--"&&n===">"?(r=1,a=""):a=n+a[0]:c?n===c?c="":a+=n:n==='"'||n==="'"?c=n:n===">"?(m(),r=1):r&&(n==="="?(r=5,l=a,a=""):n==="/"&&(r<5||o[$][f+1]===">")?(m(),r===3&&(u=u[0]),r=u,(u=u[0]).push(2,0,r),r=0):n===" "||n==="	"||n===`
`||n==="\r"?(m(),r=2):a+=n),r===3&&a==="!--"&&(r=4,u=u[0])}return m(),u})(e)),t),arguments,[])).length>1?t:t[0]}var p=ts.bind(Aa),tl=["viewer","tester","operator","admin"];function Pe(e,t){return tl.indexOf(e?.role)>=tl.indexOf(t)}function de(e,t){let[o,n]=F({loading:!0,data:void 0,error:null}),l=lr(()=>{let r=!0;return n(a=>({...a,loading:!0,error:null})),e().then(a=>r&&n({loading:!1,data:a,error:null}),a=>r&&n({loading:!1,data:void 0,error:a})),()=>{r=!1}},t);return Ut(l,[l]),{...o,reload:l}}function Ne(){let[e,t]=F({busy:!1,error:null,result:void 0}),o=lr(async n=>{t({busy:!0,error:null,result:void 0});try{let l=await n();return t({busy:!1,error:null,result:l}),l}catch(l){t({busy:!1,error:l,result:void 0});return}},[]);return{...e,run:o}}function $e({error:e}){return e?p`<p class="error" role="alert">
    ${e.message}${e.code?p` <code>${e.code}</code>`:null}
  </p>`:null}function Vc({what:e}){return p`<p class="muted" role="status">Loading ${e}…</p>`}function pe({state:e,what:t,children:o}){return e.error?p`<${$e} error=${e.error} />`:e.loading&&e.data===void 0?p`<${Vc} what=${t} />`:o(e.data)}function cn({open:e,title:t,children:o,confirmLabel:n,onConfirm:l,onCancel:r}){let a=Wt(null);return Ut(()=>{let c=a.current;c&&(e&&!c.open&&c.showModal(),!e&&c.open&&c.close())},[e]),p`<dialog ref=${a} aria-labelledby="confirm-title" onCancel=${c=>{c.preventDefault(),r()}}>
    <h2 id="confirm-title">${t}</h2>
    <div>${o}</div>
    <div class="actions">
      <button type="button" onClick=${r}>Cancel</button>
      <button type="button" class="primary" onClick=${l}>${n}</button>
    </div>
  </dialog>`}function Dt({value:e,summary:t}){return p`<details class="json">
    <summary>${t??"JSON"}</summary>
    <pre tabindex="0">${JSON.stringify(e,null,2)}</pre>
  </details>`}function Ie({value:e}){return e?/^[0-9a-f]{64}$/.test(e)?p`<code title=${e}>${e.slice(0,12)}</code>`:p`<code>${e}</code>`:p`<span class="muted">none</span>`}var ns=new Intl.NumberFormat("pt-BR",{style:"currency",currency:"BRL"});function lt(e){return e==null?"—":ns.format(e/100)}function xn(e){return e==null?"—":ns.format(Number(e))}function ir(e){return e==null?"—":`${e>0?"+":""}${lt(e)}`}function Qn(e){return e==null||Number.isNaN(e)?"—":`${(e*100).toFixed(1)} %`}function ae(e){if(!e)return"—";let t=new Date(e);return Number.isNaN(t.getTime())?e:t.toLocaleString()}var Ae=["policy","provider","economics"];function os(){let e=de(()=>jt("/stores",{},r=>r.code),[]),[t,o]=F(""),[n,l]=F("");return p`<h1>Stores</h1>
    <form class="filters" role="search" aria-label="Filter stores" onSubmit=${r=>r.preventDefault()}>
      <label>Find a store <input type="search" value=${t} onInput=${r=>o(r.target.value)} placeholder="code, name or merchant" /></label>
      <label>Mode
        <select value=${n} onChange=${r=>l(r.target.value)}>
          <option value="">any</option><option value="SHADOW">SHADOW</option><option value="LIVE">LIVE</option>
        </select>
      </label>
    </form>
    <${pe} state=${e} what="the stores">${r=>{let a=t.trim().toLowerCase(),c=r.filter(u=>(!n||u.mode===n)&&(!a||[u.code,u.name,u.merchant].some(m=>String(m).toLowerCase().includes(a))));return p`<div class="scroll"><table>
        <caption>${c.length} of ${r.length} stores</caption>
        <thead><tr><th scope="col">Store</th><th scope="col">Name</th><th scope="col">Merchant</th><th scope="col">Mode</th>
          ${Ae.map(u=>p`<th scope="col">${u}</th>`)}</tr></thead>
        <tbody>${c.map(u=>p`<tr>
            <th scope="row"><a href=${`#/stores/${encodeURIComponent(u.code)}`}>${u.code}</a></th>
            <td>${u.name}</td><td>${u.merchant}</td><td><span class=${`badge ${u.mode}`}>${u.mode}</span></td>
            ${Ae.map(m=>p`<td><${Ie} value=${u.components?.[m]} /></td>`)}
          </tr>`)}</tbody>
      </table></div>`}}<//>`}async function zc(e){let t=`/stores/${encodeURIComponent(e)}`,[o,n,...l]=await Promise.all([oe(t),oe(`${t}/components`),...Ae.map(r=>oe(`/components/${r}`))]);return{store:o,components:n,versions:Object.fromEntries(Ae.map((r,a)=>[r,l[a]]))}}function ls({code:e,me:t}){let o=de(()=>zc(e),[e]),n=Ne(),[l,r]=F(null),a=`/stores/${encodeURIComponent(e)}`;async function c(){let u=l;r(null),await n.run(u.run)!==void 0&&o.reload()}return p`<h1>Store <code>${e}</code></h1>
    <p><a href="#/stores">All stores</a>${Pe(t,"tester")?p` · <a href=${`#/evaluate/${encodeURIComponent(e)}`}>Evaluate a charge on this store</a>`:null}</p>
    <${$e} error=${n.error} />
    ${n.busy?p`<p role="status">Working…</p>`:null}
    <${pe} state=${o} what="the store">${({store:u,components:m,versions:$})=>p`
      <section aria-labelledby="store-facts">
        <h2 id="store-facts">Facts</h2>
        <dl class="facts">
          <dt>Name</dt><dd>${u.name}</dd>
          <dt>Merchant</dt><dd>${u.merchant}</dd>
          <dt>Mode</dt><dd><span class=${`badge ${u.mode}`}>${u.mode}</span></dd>
          <dt>Gateways</dt><dd>${u.gateways?.length?u.gateways.join(", "):"every active gateway"}</dd>
          <dt>Kill switch</dt><dd>${Hc(m.killSwitch)}</dd>
        </dl>
      </section>
      <section aria-labelledby="store-steps">
        <h2 id="store-steps">Components per step</h2>
        <div class="steps">
          ${Ae.map(f=>p`<${Uc}
            key=${f} step=${f} view=${m.steps[f]} versions=${$[f]} me=${t}
            onActivate=${g=>r({title:`Activate ${f} ${g==="bundled"?"bundled":g.slice(0,12)}?`,body:`Every new charge of ${e} will run this ${f} version. Charges in flight finish on the version they started with.`,label:"Activate",run:()=>ko(`${a}/components/${f}`,{version:g})})}
            onRollback=${()=>r({title:`Roll back ${f}?`,body:`The ${f} step of ${e} goes back to ${m.steps[f].previous}.`,label:"Roll back",run:()=>Bt(`${a}/components/${f}/rollback`)})}
            onCanary=${g=>n.run(()=>ko(`${a}/components/${f}/canary`,g)).then(_=>_!==void 0&&o.reload())}
            onPromote=${()=>r({title:`Promote the ${f} canary?`,body:`Every new charge of ${e} will run ${m.steps[f].canary.version.slice(0,12)} for ${f}; the canary ends.`,label:"Promote",run:()=>Bt(`${a}/components/${f}/canary/promote`)})}
            onEndCanary=${()=>n.run(()=>Co(`${a}/components/${f}/canary`)).then(g=>g!==void 0&&o.reload())}
            store=${e}
            onCandidate=${g=>n.run(()=>g?ko(`${a}/components/${f}/candidate`,{version:g}):Co(`${a}/components/${f}/candidate`)).then(_=>_!==void 0&&o.reload())}
          />`)}
        </div>
      </section>
      ${Pe(t,"operator")?p`<${jc} value=${m.killSwitch} onSave=${f=>n.run(()=>ko(`${a}/kill-switch`,f)).then(g=>g!==void 0&&o.reload())} />`:null}
      <section aria-labelledby="store-history">
        <h2 id="store-history">Activation history</h2>
        ${m.history.length===0?p`<p class="muted">Nothing was activated on this store yet.</p>`:p`<div class="scroll"><table>
              <thead><tr><th scope="col">When</th><th scope="col">Step</th><th scope="col">Action</th><th scope="col">Version</th><th scope="col">Before</th><th scope="col">Why</th></tr></thead>
              <tbody>${m.history.map(f=>p`<tr>
                <td>${ae(f.at)}</td><td>${f.step}</td><td>${f.action}</td>
                <td><${Ie} value=${f.version} /></td><td><${Ie} value=${f.previousVersion} /></td><td>${f.reason??""}</td>
              </tr>`)}</tbody>
            </table></div>`}
      </section>`}<//>
    <${cn} open=${!!l} title=${l?.title} confirmLabel=${l?.label??"Confirm"}
      onConfirm=${c} onCancel=${()=>r(null)}>${l?.body}<//>`}function Hc(e){return e?e.enabled?`armed: rolls back at ${e.errorRatePercent} % failed calls over ${e.windowSeconds} s (at least ${e.minCalls} calls)`:"off":"unknown"}function Uc({step:e,view:t,versions:o,me:n,store:l,onActivate:r,onRollback:a,onCandidate:c,onCanary:u,onPromote:m,onEndCanary:$}){let f=["bundled",...o.map(E=>E.version)],g=Object.fromEntries(o.map(E=>[E.version,E.source])),_=E=>E==="bundled"?"bundled":`${E.slice(0,12)} (${g[E]})`,[S,k]=F(f.find(E=>E!==t.active)??t.active),[y,D]=F(f.find(E=>E!==t.active)??""),w=`step-${e}`;return p`<article class="card" aria-labelledby=${w}>
    <h3 id=${w}>${e}</h3>
    <dl class="facts">
      <dt>Active</dt><dd><${Ie} value=${t.active} /></dd>
      <dt>Since</dt><dd>${ae(t.activatedAt)}</dd>
      <dt>Previous</dt><dd><${Ie} value=${t.previous} /></dd>
      <dt>Candidate</dt><dd><${Ie} value=${t.candidate} /></dd>
      <dt>Canary</dt><dd>${t.canary?p`<${Ie} value=${t.canary.version} /> on ${t.canary.percent} % of charges`:p`<span class="muted">none</span>`}</dd>
    </dl>
    ${t.canary?p`<${Bc} store=${l} step=${e} />`:null}
    ${Pe(n,"operator")?p`<div class="row">
      <label>Version to activate
        <select value=${S} onChange=${E=>k(E.target.value)}>
          ${f.map(E=>p`<option value=${E}>${_(E)}${E===t.active?", active":""}</option>`)}
        </select>
      </label>
      <button type="button" class="primary" disabled=${S===t.active} onClick=${()=>r(S)}>Activate ${e}</button>
      ${t.previous?p`<button type="button" onClick=${a}>Roll back ${e}</button>`:null}
    </div>`:null}
    ${Pe(n,"tester")?p`<div class="row">
      ${t.candidate?p`<button type="button" onClick=${()=>c(null)}>Clear ${e} candidate</button>
            <a href=${`#/shadow/${encodeURIComponent(l)}/${e}`}>See the comparison</a>`:p`<label>Shadow candidate
            <select value=${y} onChange=${E=>D(E.target.value)}>
              ${f.map(E=>p`<option value=${E}>${_(E)}</option>`)}
            </select>
          </label>
          <button type="button" onClick=${()=>c(y)}>Set ${e} candidate</button>`}
    </div>`:null}
    ${Pe(n,"operator")?t.canary?p`<div class="row">
          <button type="button" class="primary" onClick=${m}>Promote ${e} canary</button>
          <button type="button" onClick=${$}>End ${e} canary</button>
        </div>`:p`<${Wc} step=${e} choices=${f.filter(E=>E!==t.active)} label=${_} onStart=${u} />`:null}
  </article>`}function Wc({step:e,choices:t,label:o,onStart:n}){let[l,r]=F(t[0]??""),[a,c]=F(5);return t.length===0?null:p`<form class="row" aria-label=${`Start a ${e} canary`} onSubmit=${u=>{u.preventDefault(),n({version:l,percent:Number(a)})}}>
    <label>Canary version
      <select value=${l} onChange=${u=>r(u.target.value)}>
        ${t.map(u=>p`<option value=${u}>${o(u)}</option>`)}
      </select>
    </label>
    <label>Share (%) <input type="number" min="0.1" max="100" step="0.1" value=${a} onInput=${u=>c(u.target.value)} /></label>
    <button type="submit">Start ${e} canary</button>
  </form>`}function Bc({store:e,step:t}){let o=de(()=>oe(`/stores/${encodeURIComponent(e)}/components/${t}/canary`),[e,t]);return p`<${pe} state=${o} what="the canary">${n=>p`
    <dl class="facts" aria-label=${`${t} canary figures`}>
      <dt>Share so far</dt><dd>${n.sharePercent} % (${n.total.calls} calls)</dd>
      <dt>Errors</dt><dd>${n.total.errors} (${n.total.errorRatePercent} %; ends at ${n.maxErrorRatePercent} % over ${n.windowSeconds} s)</dd>
      <dt>Changed</dt><dd>${n.total.changed} (${n.total.changedRatePercent} %${n.maxChangedRatePercent?`; ends at ${n.maxChangedRatePercent} %`:""})</dd>
    </dl>`}<//>`}function jc({value:e,onSave:t}){let[o,n]=F({...e}),l=r=>a=>n({...o,[r]:a.target.type==="checkbox"?a.target.checked:Number(a.target.value)});return p`<section aria-labelledby="kill-switch">
    <h2 id="kill-switch">Kill switch</h2>
    <form class="row" onSubmit=${r=>{r.preventDefault(),t({enabled:o.enabled,errorRatePercent:o.errorRatePercent,windowSeconds:o.windowSeconds,minCalls:o.minCalls})}}>
      <label><input type="checkbox" checked=${o.enabled} onChange=${l("enabled")} /> Armed</label>
      <label>Error rate (%) <input type="number" min="1" max="100" value=${o.errorRatePercent} onInput=${l("errorRatePercent")} /></label>
      <label>Window (s) <input type="number" min="10" max="86400" value=${o.windowSeconds} onInput=${l("windowSeconds")} /></label>
      <label>Minimum calls <input type="number" min="1" max="1000000" value=${o.minCalls} onInput=${l("minCalls")} /></label>
      <button type="submit">Save the kill switch</button>
    </form>
  </section>`}function rs({me:e}){let t=de(async()=>{let r=await Promise.all(Ae.map(a=>oe(`/components/${a}`)));return Object.fromEntries(Ae.map((a,c)=>[a,r[c]]))},[]),o=Ne(),[n,l]=F(null);return p`<h1>Components</h1>
    ${Pe(e,"operator")?p`<${Gc} onUploaded=${t.reload} />`:null}
    <${$e} error=${o.error} />
    <${pe} state=${t} what="the components">${r=>Ae.map(a=>p`
      <section aria-labelledby=${`versions-${a}`}>
        <h2 id=${`versions-${a}`}>${a}</h2>
        <div class="scroll"><table>
          <thead><tr><th scope="col">Version</th><th scope="col">Label</th><th scope="col">Source</th><th scope="col">Size</th><th scope="col">Uploaded</th><th scope="col">In use</th>
            ${Pe(e,"operator")?p`<th scope="col"><span class="visually-hidden">Actions</span></th>`:null}</tr></thead>
          <tbody>${r[a].map(c=>p`<tr>
            <th scope="row"><${Ie} value=${c.version} /></th>
            <td>${c.label??p`<span class="muted">none</span>`}</td>
            <td>${c.source}</td>
            <td>${(c.sizeBytes/1024).toFixed(1)} KiB</td>
            <td>${ae(c.createdAt)}</td>
            <td>${c.inUse.length?c.inUse.map(u=>`${u.store} (${u.role})`).join(", "):p`<span class="muted">no store</span>`}</td>
            ${Pe(e,"operator")?p`<td>${c.source!=="bundled"&&c.inUse.length===0?p`<button type="button" onClick=${()=>l(c)} aria-label=${`Delete ${a} version ${c.version.slice(0,12)}`}>Delete</button>`:null}</td>`:null}
          </tr>`)}</tbody>
        </table></div>
      </section>`)}<//>
    <${cn} open=${!!n} title="Delete this version?" confirmLabel="Delete"
      onCancel=${()=>l(null)}
      onConfirm=${async()=>{let r=n;l(null),await o.run(()=>Co(`/components/${r.step}/${r.version}`))!==void 0&&t.reload()}}>${n?p`The ${n.step} version <code>${n.version}</code> will be gone for good.`:null}<//>`}function Gc({onUploaded:e}){let t=Wt(null),[o,n]=F("provider"),[l,r]=F(""),a=Ne();function c(){let m=t.current.files[0];m&&!l&&r(m.name.replace(/\.wasm$/i,""))}async function u(m){m.preventDefault();let $=t.current.files[0];if(!$)return;let f=l?`?label=${encodeURIComponent(l)}`:"";await a.run(()=>Jt("POST",`/components/${o}${f}`,{body:$,contentType:"application/wasm"}))&&(t.current.value="",r(""),e())}return p`<section aria-labelledby="upload-title">
    <h2 id="upload-title">Upload a component</h2>
    <form class="row" onSubmit=${u}>
      <label>Step
        <select value=${o} onChange=${m=>n(m.target.value)}>
          ${Ae.map(m=>p`<option value=${m}>${m}</option>`)}
        </select>
      </label>
      <label>Component file (.wasm) <input type="file" ref=${t} onChange=${c} accept=".wasm,application/wasm" required /></label>
      <label>Label <input value=${l} onInput=${m=>r(m.target.value)} maxLength="100" placeholder="the file's name" /></label>
      <button type="submit" class="primary" disabled=${a.busy}>Upload</button>
    </form>
    <${$e} error=${a.error} />
    ${a.result?p`<p role="status">Uploaded ${a.result.step} version <code>${a.result.version}</code>${a.result.label?` (${a.result.label})`:""}.</p>`:null}
  </section>`}var Yc="uplot",Kc="u-hz",qc="u-vt",Jc="u-title",Qc="u-wrap",Zc="u-under",Xc="u-over",eu="u-axis",En="u-off",tu="u-select",nu="u-cursor-x",ou="u-cursor-y",lu="u-cursor-pt",ru="u-legend",au="u-live",su="u-inline",iu="u-series",cu="u-marker",as="u-label",uu="u-value",Ao="width",To="height";var ss="bottom",Zn="left",cr="right",Cr="#000",is=Cr+"0",ur="mousemove",cs="mousedown",dr="mouseup",us="mouseenter",ds="mouseleave",fs="dblclick",du="resize",fu="scroll",ps="change",al="dppxchange",Er="--",ro=typeof window<"u",$r=ro?document:null,eo=ro?window:null,pu=ro?navigator:null,ce,nl;function gr(){let e=devicePixelRatio;ce!=e&&(ce=e,nl&&br(ps,nl,gr),nl=matchMedia(`(min-resolution: ${ce-.001}dppx) and (max-resolution: ${ce+.001}dppx)`),An(ps,nl,gr),eo.dispatchEvent(new CustomEvent(al)))}function mt(e,t){if(t!=null){let o=e.classList;!o.contains(t)&&o.add(t)}}function _r(e,t){let o=e.classList;o.contains(t)&&o.remove(t)}function xe(e,t,o){e.style[t]=o+"px"}function Lt(e,t,o,n){let l=$r.createElement(e);return t!=null&&mt(l,t),o?.insertBefore(l,n),l}function xt(e,t){return Lt("div",e,t)}var hs=new WeakMap;function Gt(e,t,o,n,l){let r="translate("+t+"px,"+o+"px)",a=hs.get(e);r!=a&&(e.style.transform=r,hs.set(e,r),t<0||o<0||t>n||o>l?mt(e,En):_r(e,En))}var ms=new WeakMap;function $s(e,t,o){let n=t+o,l=ms.get(e);n!=l&&(ms.set(e,n),e.style.background=t,e.style.borderColor=o)}var gs=new WeakMap;function _s(e,t,o,n){let l=t+""+o,r=gs.get(e);l!=r&&(gs.set(e,l),e.style.height=o+"px",e.style.width=t+"px",e.style.marginLeft=n?-t/2+"px":0,e.style.marginTop=n?-o/2+"px":0)}var Ar={passive:!0},hu={...Ar,capture:!0};function An(e,t,o,n){t.addEventListener(e,o,n?hu:Ar)}function br(e,t,o,n){t.removeEventListener(e,o,Ar)}ro&&gr();function It(e,t,o,n){let l;o=o||0,n=n||t.length-1;let r=n<=2147483647;for(;n-o>1;)l=r?o+n>>1:$t((o+n)/2),t[l]<e?o=l:n=l;return e-t[o]<=t[n]-e?o:n}function Gs(e){return(o,n,l)=>{let r=-1,a=-1;for(let c=n;c<=l;c++)if(e(o[c])){r=c;break}for(let c=l;c>=n;c--)if(e(o[c])){a=c;break}return[r,a]}}var Ys=e=>e!=null,Ks=e=>e!=null&&e>0,cl=Gs(Ys),mu=Gs(Ks);function $u(e,t,o,n=0,l=!1){let r=l?mu:cl,a=l?Ks:Ys;[t,o]=r(e,t,o);let c=e[t],u=e[t];if(t>-1)if(n==1)c=e[t],u=e[o];else if(n==-1)c=e[o],u=e[t];else for(let m=t;m<=o;m++){let $=e[m];a($)&&($<c?c=$:$>u&&(u=$))}return[c??ge,u??-ge]}function ul(e,t,o,n){let l=ys(e),r=ys(t);e==t&&(l==-1?(e*=o,t/=o):(e/=o,t*=o));let a=o==10?Qt:qs,c=l==1?$t:kt,u=r==1?kt:$t,m=c(a(Ue(e))),$=u(a(Ue(t))),f=to(o,m),g=to(o,$);return o==10&&(m<0&&(f=_e(f,-m)),$<0&&(g=_e(g,-$))),n||o==2?(e=f*l,t=g*r):(e=Xs(e,f),t=dl(t,g)),[e,t]}function Tr(e,t,o,n){let l=ul(e,t,o,n);return e==0&&(l[0]=0),t==0&&(l[1]=0),l}var Pr=.1,bs={mode:3,pad:Pr},Do={pad:0,soft:null,mode:0},gu={min:Do,max:Do};function sl(e,t,o,n){return fl(o)?vs(e,t,o):(Do.pad=o,Do.soft=n?0:null,Do.mode=n?3:0,vs(e,t,gu))}function se(e,t){return e??t}function _u(e,t,o){for(t=se(t,0),o=se(o,e.length-1);t<=o;){if(e[t]!=null)return!0;t++}return!1}function vs(e,t,o){let n=o.min,l=o.max,r=se(n.pad,0),a=se(l.pad,0),c=se(n.hard,-ge),u=se(l.hard,ge),m=se(n.soft,ge),$=se(l.soft,-ge),f=se(n.mode,0),g=se(l.mode,0),_=t-e,S=Qt(_),k=rt(Ue(e),Ue(t)),y=Qt(k),D=Ue(y-S);(_<1e-24||D>10)&&(_=0,(e==0||t==0)&&(_=1e-24,f==2&&m!=ge&&(r=0),g==2&&$!=-ge&&(a=0)));let w=_||k||1e3,E=Qt(w),C=to(10,$t(E)),q=w*(_==0?e==0?.1:1:r),N=_e(Xs(e-q,C/10),24),J=e>=m&&(f==1||f==3&&N<=m||f==2&&N>=m)?m:ge,B=rt(c,N<J&&e>=J?J:Mt(J,N)),Z=w*(_==0?t==0?.1:1:a),W=_e(dl(t+Z,C/10),24),P=t<=$&&(g==1||g==3&&W>=$||g==2&&W<=$)?$:-ge,j=Mt(u,W>P&&t<=P?P:rt(P,W));return B==j&&B==0&&(j=100),[B,j]}var bu=new Intl.NumberFormat(ro?pu.language:"en-US"),Dr=e=>bu.format(e),gt=Math,rl=gt.PI,Ue=gt.abs,$t=gt.floor,He=gt.round,kt=gt.ceil,Mt=gt.min,rt=gt.max,to=gt.pow,ys=gt.sign,Qt=gt.log10,qs=gt.log2,vu=(e,t=1)=>gt.sinh(e)*t,fr=(e,t=1)=>gt.asinh(e/t),ge=1/0;function ws(e){return(Qt((e^e>>31)-(e>>31))|0)+1}function vr(e,t,o){return Mt(rt(e,t),o)}function Js(e){return typeof e=="function"}function te(e){return Js(e)?e:()=>e}var yu=()=>{},Qs=e=>e,Zs=(e,t)=>t,wu=e=>null,Ss=e=>!0,xs=(e,t)=>e==t,Su=/\.\d*?(?=9{6,}|0{6,})/gm,Tn=e=>{if(ti(e)||dn.has(e))return e;let t=`${e}`,o=t.match(Su);if(o==null)return e;let n=o[0].length-1;if(t.indexOf("e-")!=-1){let[l,r]=t.split("e");return+`${Tn(l)}e${r}`}return _e(e,n)};function kn(e,t){return Tn(_e(Tn(e/t))*t)}function dl(e,t){return Tn(kt(Tn(e/t))*t)}function Xs(e,t){return Tn($t(Tn(e/t))*t)}function _e(e,t=0){if(ti(e))return e;let o=10**t,n=e*o*(1+Number.EPSILON);return He(n)/o}var dn=new Map;function ei(e){return((""+e).split(".")[1]||"").length}function Io(e,t,o,n){let l=[],r=n.map(ei);for(let a=t;a<o;a++){let c=Ue(a),u=_e(to(e,a),c);for(let m=0;m<n.length;m++){let $=e==10?+`${n[m]}e${a}`:n[m]*u,f=(a>=0?0:c)+(a>=r[m]?0:r[m]),g=e==10?$:_e($,f);l.push(g),dn.set(g,f)}}return l}var Lo={},Lr=[],no=[null,null],un=Array.isArray,ti=Number.isInteger,xu=e=>e===void 0;function ks(e){return typeof e=="string"}function fl(e){let t=!1;if(e!=null){let o=e.constructor;t=o==null||o==Object}return t}function ku(e){return e!=null&&typeof e=="object"}var Cu=Object.getPrototypeOf(Uint8Array),ni="__proto__";function oo(e,t=fl){let o;if(un(e)){let n=e.find(l=>l!=null);if(un(n)||t(n)){o=Array(e.length);for(let l=0;l<e.length;l++)o[l]=oo(e[l],t)}else o=e.slice()}else if(e instanceof Cu)o=e.slice();else if(t(e)){o={};for(let n in e)n!=ni&&(o[n]=oo(e[n],t))}else o=e;return o}function Oe(e){let t=arguments;for(let o=1;o<t.length;o++){let n=t[o];for(let l in n)l!=ni&&(fl(e[l])?Oe(e[l],oo(n[l])):e[l]=oo(n[l]))}return e}var Eu=0,Au=1,Tu=2;function Pu(e,t,o){for(let n=0,l,r=-1;n<t.length;n++){let a=t[n];if(a>r){for(l=a-1;l>=0&&e[l]==null;)e[l--]=null;for(l=a+1;l<o&&e[l]==null;)e[r=l++]=null}}}function Du(e,t){if(Mu(e)){let a=e[0].slice();for(let c=1;c<e.length;c++)a.push(...e[c].slice(1));return Ru(a[0])||(a=Iu(a)),a}let o=new Set;for(let a=0;a<e.length;a++){let u=e[a][0],m=u.length;for(let $=0;$<m;$++)o.add(u[$])}let n=[Array.from(o).sort((a,c)=>a-c)],l=n[0].length,r=new Map;for(let a=0;a<l;a++)r.set(n[0][a],a);for(let a=0;a<e.length;a++){let c=e[a],u=c[0];for(let m=1;m<c.length;m++){let $=c[m],f=Array(l).fill(void 0),g=t?t[a][m]:Au,_=[];for(let S=0;S<$.length;S++){let k=$[S],y=r.get(u[S]);k===null?g!=Eu&&(f[y]=k,g==Tu&&_.push(y)):f[y]=k}Pu(f,_,l),n.push(f)}}return n}var Lu=typeof queueMicrotask>"u"?e=>Promise.resolve().then(e):queueMicrotask;function Iu(e){let t=e[0],o=t.length,n=Array(o);for(let r=0;r<n.length;r++)n[r]=r;n.sort((r,a)=>t[r]-t[a]);let l=[];for(let r=0;r<e.length;r++){let a=e[r],c=Array(o);for(let u=0;u<o;u++)c[u]=a[n[u]];l.push(c)}return l}function Mu(e){let t=e[0][0],o=t.length;for(let n=1;n<e.length;n++){let l=e[n][0];if(l.length!=o)return!1;if(l!=t){for(let r=0;r<o;r++)if(l[r]!=t[r])return!1}}return!0}function Ru(e,t=100){let o=e.length;if(o<=1)return!0;let n=0,l=o-1;for(;n<=l&&e[n]==null;)n++;for(;l>=n&&e[l]==null;)l--;if(l<=n)return!0;let r=rt(1,$t((l-n+1)/t));for(let a=e[n],c=n+r;c<=l;c+=r){let u=e[c];if(u!=null){if(u<=a)return!1;a=u}}return!0}var oi=["January","February","March","April","May","June","July","August","September","October","November","December"],li=["Sunday","Monday","Tuesday","Wednesday","Thursday","Friday","Saturday"];function ri(e){return e.slice(0,3)}var Nu=li.map(ri),Ou=oi.map(ri),Fu={MMMM:oi,MMM:Ou,WWWW:li,WWW:Nu};function Eo(e){return(e<10?"0":"")+e}function Vu(e){return(e<10?"00":e<100?"0":"")+e}var zu={YYYY:e=>e.getFullYear(),YY:e=>(e.getFullYear()+"").slice(2),MMMM:(e,t)=>t.MMMM[e.getMonth()],MMM:(e,t)=>t.MMM[e.getMonth()],MM:e=>Eo(e.getMonth()+1),M:e=>e.getMonth()+1,DD:e=>Eo(e.getDate()),D:e=>e.getDate(),WWWW:(e,t)=>t.WWWW[e.getDay()],WWW:(e,t)=>t.WWW[e.getDay()],HH:e=>Eo(e.getHours()),H:e=>e.getHours(),h:e=>{let t=e.getHours();return t==0?12:t>12?t-12:t},AA:e=>e.getHours()>=12?"PM":"AM",aa:e=>e.getHours()>=12?"pm":"am",a:e=>e.getHours()>=12?"p":"a",mm:e=>Eo(e.getMinutes()),m:e=>e.getMinutes(),ss:e=>Eo(e.getSeconds()),s:e=>e.getSeconds(),fff:e=>Vu(e.getMilliseconds())};function Ir(e,t){t=t||Fu;let o=[],n=/\{([a-z]+)\}|[^{]+/gi,l;for(;l=n.exec(e);)o.push(l[0][0]=="{"?zu[l[1]]:l[0]);return r=>{let a="";for(let c=0;c<o.length;c++)a+=typeof o[c]=="string"?o[c]:o[c](r,t);return a}}var Hu=new Intl.DateTimeFormat().resolvedOptions().timeZone;function Uu(e,t){let o;return t=="UTC"||t=="Etc/UTC"?o=new Date(+e+e.getTimezoneOffset()*6e4):t==Hu?o=e:(o=new Date(e.toLocaleString("en-US",{timeZone:t})),o.setMilliseconds(e.getMilliseconds())),o}var ai=e=>e%1==0,il=[1,2,2.5,5],Wu=Io(10,-32,0,il),si=Io(10,0,32,il),Bu=si.filter(ai),Cn=Wu.concat(si),Mr=`
`,ii="{YYYY}",Cs=Mr+ii,ci="{M}/{D}",Po=Mr+ci,ol=Po+"/{YY}",ui="{aa}",ju="{h}:{mm}",Xn=ju+ui,Es=Mr+Xn,As=":{ss}",fe=null;function di(e){let t=e*1e3,o=t*60,n=o*60,l=n*24,r=l*30,a=l*365,u=(e==1?Io(10,0,3,il).filter(ai):Io(10,-3,0,il)).concat([t,t*5,t*10,t*15,t*30,o,o*5,o*10,o*15,o*30,n,n*2,n*3,n*4,n*6,n*8,n*12,l,l*2,l*3,l*4,l*5,l*6,l*7,l*8,l*9,l*10,l*15,r,r*2,r*3,r*4,r*6,a,a*2,a*5,a*10,a*25,a*50,a*100]),m=[[a,ii,fe,fe,fe,fe,fe,fe,1],[l*28,"{MMM}",Cs,fe,fe,fe,fe,fe,1],[l,ci,Cs,fe,fe,fe,fe,fe,1],[n,"{h}"+ui,ol,fe,Po,fe,fe,fe,1],[o,Xn,ol,fe,Po,fe,fe,fe,1],[t,As,ol+" "+Xn,fe,Po+" "+Xn,fe,Es,fe,1],[e,As+".{fff}",ol+" "+Xn,fe,Po+" "+Xn,fe,Es,fe,1]];function $(f){return(g,_,S,k,y,D)=>{let w=[],E=y>=a,C=y>=r&&y<a,q=f(S),N=_e(q*e,3),J=pr(q.getFullYear(),E?0:q.getMonth(),C||E?1:q.getDate()),B=_e(J*e,3);if(C||E){let Z=C?y/r:0,W=E?y/a:0,P=N==B?N:_e(pr(J.getFullYear()+W,J.getMonth()+Z,1)*e,3),j=new Date(He(P/e)),I=j.getFullYear(),Y=j.getMonth();for(let U=0;P<=k;U++){let ne=pr(I+W*U,Y+Z*U,1),H=ne-f(_e(ne*e,3));P=_e((+ne+H)*e,3),P<=k&&w.push(P)}}else{let Z=y>=l?l:y,W=$t(S)-$t(N),P=B+W+dl(N-B,Z);w.push(P);let j=f(P),I=j.getHours()+j.getMinutes()/o+j.getSeconds()/n,Y=y/n,U=g.axes[_]._space,ne=D/U;for(;P=_e(P+y,e==1?0:3),!(P>k);)if(Y>1){let H=$t(_e(I+Y,6))%24,le=f(P).getHours()-H;le>1&&(le=-1),P-=le*n,I=(I+Y)%24;let he=w[w.length-1];_e((P-he)/y,3)*ne>=.7&&w.push(P)}else w.push(P)}return w}}return[u,m,$]}var[Gu,Yu,Ku]=di(1),[qu,Ju,Qu]=di(.001);Io(2,-53,53,[1]);function Ts(e,t){return e.map(o=>o.map((n,l)=>l==0||l==8||n==null?n:t(l==1||o[8]==0?n:o[1]+n)))}function Ps(e,t){return(o,n,l,r,a)=>{let c=t.find(S=>a>=S[0])||t[t.length-1],u,m,$,f,g,_;return n.map(S=>{let k=e(S),y=k.getFullYear(),D=k.getMonth(),w=k.getDate(),E=k.getHours(),C=k.getMinutes(),q=k.getSeconds(),N=y!=u&&c[2]||D!=m&&c[3]||w!=$&&c[4]||E!=f&&c[5]||C!=g&&c[6]||q!=_&&c[7]||c[1];return u=y,m=D,$=w,f=E,g=C,_=q,N(k)})}}function Zu(e,t){let o=Ir(t);return(n,l,r,a,c)=>l.map(u=>o(e(u)))}function pr(e,t,o){return new Date(e,t,o)}function Ds(e,t){return t(e)}var Xu="{YYYY}-{MM}-{DD} {h}:{mm}{aa}";function Ls(e,t){return(o,n,l,r)=>r==null?Er:t(e(n))}function ed(e,t){let o=e.series[t];return o.width?o.stroke(e,t):o.points.width?o.points.stroke(e,t):null}function td(e,t){return e.series[t].fill(e,t)}var nd={show:!0,live:!0,isolate:!1,mount:yu,markers:{show:!0,width:2,stroke:ed,fill:td,dash:"solid"},idx:null,idxs:null,values:[]};function od(e,t){let o=e.cursor.points,n=xt(),l=o.size(e,t);xe(n,Ao,l),xe(n,To,l);let r=l/-2;xe(n,"marginLeft",r),xe(n,"marginTop",r);let a=o.width(e,t,l);return a&&xe(n,"borderWidth",a),n}function ld(e,t){let o=e.series[t].points;return o._fill||o._stroke}function rd(e,t){let o=e.series[t].points;return o._stroke||o._fill}function ad(e,t){return e.series[t].points.size}var hr=[0,0];function sd(e,t,o){return hr[0]=t,hr[1]=o,hr}function ll(e,t,o,n=!0){return l=>{l.button==0&&(!n||l.target==t)&&o(l)}}function mr(e,t,o,n=!0){return l=>{(!n||l.target==t)&&o(l)}}var id={show:!0,x:!0,y:!0,lock:!1,move:sd,points:{one:!1,show:od,size:ad,width:0,stroke:rd,fill:ld},bind:{mousedown:ll,mouseup:ll,click:ll,dblclick:ll,mousemove:mr,mouseleave:mr,mouseenter:mr},drag:{setScale:!0,x:!0,y:!1,dist:0,uni:null,click:(e,t)=>{t.stopPropagation(),t.stopImmediatePropagation()},_x:!1,_y:!1},focus:{dist:(e,t,o,n,l)=>n-l,prox:-1,bias:0},hover:{skip:[void 0],prox:null,bias:0},left:-10,top:-10,idx:null,dataIdx:null,idxs:null,event:null},fi={show:!0,stroke:"rgba(0,0,0,0.07)",width:2},Rr=Oe({},fi,{filter:Zs}),pi=Oe({},Rr,{size:10}),hi=Oe({},fi,{show:!1}),Nr='12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif, "Apple Color Emoji", "Segoe UI Emoji", "Segoe UI Symbol", "Noto Color Emoji"',mi="bold "+Nr,$i=1.5,Is={show:!0,scale:"x",stroke:Cr,space:50,gap:5,alignTo:1,size:50,labelGap:0,labelSize:30,labelFont:mi,side:2,grid:Rr,ticks:pi,border:hi,font:Nr,lineGap:$i,rotate:0},cd="Value",ud="Time",Ms={show:!0,scale:"x",auto:!1,sorted:1,min:ge,max:-ge,idxs:[]};function dd(e,t,o,n,l){return t.map(r=>r==null?"":Dr(r))}function fd(e,t,o,n,l,r,a){let c=[],u=dn.get(l)||0;o=a?o:_e(dl(o,l),u);for(let m=o;m<=n;m=_e(m+l,u))c.push(Object.is(m,-0)?0:m);return c}function yr(e,t,o,n,l,r,a){let c=[],u=e.scales[e.axes[t].scale].log,m=u==10?Qt:qs,$=$t(m(o));l=to(u,$),u==10&&(l=Cn[It(l,Cn)]);let f=o,g=l*u;u==10&&(g=Cn[It(g,Cn)]);do c.push(f),f=f+l,u==10&&!dn.has(f)&&(f=_e(f,dn.get(l))),f>=g&&(l=f,g=l*u,u==10&&(g=Cn[It(g,Cn)]));while(f<=n);return c}function pd(e,t,o,n,l,r,a){let u=e.scales[e.axes[t].scale].asinh,m=n>u?yr(e,t,rt(u,o),n,l):[u],$=n>=0&&o<=0?[0]:[];return(o<-u?yr(e,t,rt(u,-n),-o,l):[u]).reverse().map(g=>-g).concat($,m)}var gi=/./,hd=/[12357]/,md=/[125]/,Rs=/1/,wr=(e,t,o,n)=>e.map((l,r)=>t==4&&l==0||r%n==0&&o.test(l.toExponential()[l<0?1:0])?l:null);function $d(e,t,o,n,l){let r=e.axes[o],a=r.scale,c=e.scales[a],u=e.valToPos,m=r._space,$=u(10,a),f=u(9,a)-$>=m?gi:u(7,a)-$>=m?hd:u(5,a)-$>=m?md:Rs;if(f==Rs){let g=Ue(u(1,a)-$);if(g<m)return wr(t.slice().reverse(),c.distr,f,kt(m/g)).reverse()}return wr(t,c.distr,f,1)}function gd(e,t,o,n,l){let r=e.axes[o],a=r.scale,c=r._space,u=e.valToPos,m=Ue(u(1,a)-u(2,a));return m<c?wr(t.slice().reverse(),3,gi,kt(c/m)).reverse():t}function _d(e,t,o,n){return n==null?Er:t==null?"":Dr(t)}var Ns={show:!0,scale:"y",stroke:Cr,space:30,gap:5,alignTo:1,size:50,labelGap:0,labelSize:30,labelFont:mi,side:3,grid:Rr,ticks:pi,border:hi,font:Nr,lineGap:$i,rotate:0};function bd(e,t){let o=3+(e||1)*2;return _e(o*t,3)}function vd(e,t){let{scale:o,idxs:n}=e.series[0],l=e._data[0],r=e.valToPos(l[n[0]],o,!0),a=e.valToPos(l[n[1]],o,!0),c=Ue(a-r),u=e.series[t],m=c/(u.points.space*ce);return n[1]-n[0]<=m}var Os={scale:null,auto:!0,sorted:0,min:ge,max:-ge},_i=(e,t,o,n,l)=>l,Fs={show:!0,auto:!0,sorted:0,gaps:_i,alpha:1,facets:[Oe({},Os,{scale:"x"}),Oe({},Os,{scale:"y"})]},Vs={scale:"y",auto:!0,sorted:0,show:!0,spanGaps:!1,gaps:_i,alpha:1,points:{show:vd,filter:null},values:null,min:ge,max:-ge,idxs:[],path:null,clip:null};function yd(e,t,o,n,l){return o/10}var bi={time:!0,auto:!0,distr:1,log:10,asinh:1,min:null,max:null,dir:1,ori:0},wd=Oe({},bi,{time:!1,ori:1}),zs={};function vi(e,t){let o=zs[e];return o||(o={key:e,plots:[],sub(n){o.plots.push(n)},unsub(n){o.plots=o.plots.filter(l=>l!=n)},pub(n,l,r,a,c,u,m){for(let $=0;$<o.plots.length;$++)o.plots[$]!=l&&o.plots[$].pub(n,l,r,a,c,u,m)}},e!=null&&(zs[e]=o)),o}var lo=1,Sr=2;function Pn(e,t,o){let n=e.mode,l=e.series[t],r=n==2?e._data[t]:e._data,a=e.scales,c=e.bbox,u=r[0],m=n==2?r[1]:r[t],$=n==2?a[l.facets[0].scale]:a[e.series[0].scale],f=n==2?a[l.facets[1].scale]:a[l.scale],g=c.left,_=c.top,S=c.width,k=c.height,y=e.valToPosH,D=e.valToPosV;return $.ori==0?o(l,u,m,$,f,y,D,g,_,S,k,hl,ao,$l,wi,xi):o(l,u,m,$,f,D,y,_,g,k,S,ml,so,Vr,Si,ki)}function Or(e,t){let o=0,n=0,l=se(e.bands,Lr);for(let r=0;r<l.length;r++){let a=l[r];a.series[0]==t?o=a.dir:a.series[1]==t&&(a.dir==1?n|=1:n|=2)}return[o,n==1?-1:n==2?1:n==3?2:0]}function Sd(e,t,o,n,l){let r=e.mode,a=e.series[t],c=r==2?a.facets[1].scale:a.scale,u=e.scales[c];return l==-1?u.min:l==1?u.max:u.distr==3?u.dir==1?u.min:u.max:0}function Zt(e,t,o,n,l,r){return Pn(e,t,(a,c,u,m,$,f,g,_,S,k,y)=>{let D=a.pxRound,w=m.dir*(m.ori==0?1:-1),E=m.ori==0?ao:so,C,q;w==1?(C=o,q=n):(C=n,q=o);let N=D(f(c[C],m,k,_)),J=D(g(u[C],$,y,S)),B=D(f(c[q],m,k,_)),Z=D(g(r==1?$.max:$.min,$,y,S)),W=new Path2D(l);return E(W,B,Z),E(W,N,Z),E(W,N,J),W})}function pl(e,t,o,n,l,r){let a=null;if(e.length>0){a=new Path2D;let c=t==0?$l:Vr,u=o;for(let f=0;f<e.length;f++){let g=e[f];if(g[1]>g[0]){let _=g[0]-u;_>0&&c(a,u,n,_,n+r),u=g[1]}}let m=o+l-u,$=10;m>0&&c(a,u,n-$/2,m,n+r+$)}return a}function xd(e,t,o){let n=e[e.length-1];n&&n[0]==t?n[1]=o:e.push([t,o])}function Fr(e,t,o,n,l,r,a){let c=[],u=e.length;for(let m=l==1?o:n;m>=o&&m<=n;m+=l)if(t[m]===null){let f=m,g=m;if(l==1)for(;++m<=n&&t[m]===null;)g=m;else for(;--m>=o&&t[m]===null;)g=m;let _=r(e[f]),S=g==f?_:r(e[g]),k=f-l;_=a<=0&&k>=0&&k<u?r(e[k]):_;let D=g+l;S=a>=0&&D>=0&&D<u?r(e[D]):S,S>=_&&c.push([_,S])}return c}function Hs(e){return e==0?Qs:e==1?He:t=>kn(t,e)}function yi(e){let t=e==0?hl:ml,o=e==0?(l,r,a,c,u,m)=>{l.arcTo(r,a,c,u,m)}:(l,r,a,c,u,m)=>{l.arcTo(a,r,u,c,m)},n=e==0?(l,r,a,c,u)=>{l.rect(r,a,c,u)}:(l,r,a,c,u)=>{l.rect(a,r,u,c)};return(l,r,a,c,u,m=0,$=0)=>{m==0&&$==0?n(l,r,a,c,u):(m=Mt(m,c/2,u/2),$=Mt($,c/2,u/2),t(l,r+m,a),o(l,r+c,a,r+c,a+u,m),o(l,r+c,a+u,r,a+u,$),o(l,r,a+u,r,a,$),o(l,r,a,r+c,a,m),l.closePath())}}var hl=(e,t,o)=>{e.moveTo(t,o)},ml=(e,t,o)=>{e.moveTo(o,t)},ao=(e,t,o)=>{e.lineTo(t,o)},so=(e,t,o)=>{e.lineTo(o,t)},$l=yi(0),Vr=yi(1),wi=(e,t,o,n,l,r)=>{e.arc(t,o,n,l,r)},Si=(e,t,o,n,l,r)=>{e.arc(o,t,n,l,r)},xi=(e,t,o,n,l,r,a)=>{e.bezierCurveTo(t,o,n,l,r,a)},ki=(e,t,o,n,l,r,a)=>{e.bezierCurveTo(o,t,l,n,a,r)};function Ci(e){return(t,o,n,l,r)=>Pn(t,o,(a,c,u,m,$,f,g,_,S,k,y)=>{let{pxRound:D,points:w}=a,E,C;m.ori==0?(E=hl,C=wi):(E=ml,C=Si);let q=_e(w.width*ce,3),N=(w.size-w.width)/2*ce,J=_e(N*2,3),B=new Path2D,Z=new Path2D,{left:W,top:P,width:j,height:I}=t.bbox;$l(Z,W-J,P-J,j+J*2,I+J*2);let Y=U=>{if(u[U]!=null){let ne=D(f(c[U],m,k,_)),H=D(g(u[U],$,y,S));E(B,ne+N,H),C(B,ne,H,N,0,rl*2)}};if(r)r.forEach(Y);else for(let U=n;U<=l;U++)Y(U);return{stroke:q>0?B:null,fill:B,clip:Z,flags:lo|Sr}})}function Ei(e){return(t,o,n,l,r,a)=>{n!=l&&(r!=n&&a!=n&&e(t,o,n),r!=l&&a!=l&&e(t,o,l),e(t,o,a))}}var kd=Ei(ao),Cd=Ei(so);function Ai(e){let t=se(e?.alignGaps,0);return(o,n,l,r)=>Pn(o,n,(a,c,u,m,$,f,g,_,S,k,y)=>{[l,r]=cl(u,l,r);let D=a.pxRound,w=I=>D(f(I,m,k,_)),E=I=>D(g(I,$,y,S)),C,q;m.ori==0?(C=ao,q=kd):(C=so,q=Cd);let N=m.dir*(m.ori==0?1:-1),J={stroke:new Path2D,fill:null,clip:null,band:null,gaps:null,flags:lo},B=J.stroke,Z=!1;if(r-l>=k*4){let I=V=>o.posToVal(V,m.key,!0),Y=null,U=null,ne,H,at,ke=w(c[N==1?l:r]),le=w(c[l]),he=w(c[r]),X=I(N==1?le+1:he-1);for(let V=N==1?l:r;V>=l&&V<=r;V+=N){let Fe=c[V],Ce=(N==1?Fe<X:Fe>X)?ke:w(Fe),ue=u[V];Ce==ke?ue!=null?(H=ue,Y==null?(C(B,Ce,E(H)),ne=Y=U=H):H<Y?Y=H:H>U&&(U=H)):ue===null&&(Z=!0):(Y!=null&&q(B,ke,E(Y),E(U),E(ne),E(H)),ue!=null?(H=ue,C(B,Ce,E(H)),Y=U=ne=H):(Y=U=null,ue===null&&(Z=!0)),ke=Ce,X=I(ke+N))}Y!=null&&Y!=U&&at!=ke&&q(B,ke,E(Y),E(U),E(ne),E(H))}else for(let I=N==1?l:r;I>=l&&I<=r;I+=N){let Y=u[I];Y===null?Z=!0:Y!=null&&C(B,w(c[I]),E(Y))}let[P,j]=Or(o,n);if(a.fill!=null||P!=0){let I=J.fill=new Path2D(B),Y=a.fillTo(o,n,a.min,a.max,P),U=E(Y),ne=w(c[l]),H=w(c[r]);N==-1&&([H,ne]=[ne,H]),C(I,H,U),C(I,ne,U)}if(!a.spanGaps){let I=[];Z&&I.push(...Fr(c,u,l,r,N,w,t)),J.gaps=I=a.gaps(o,n,l,r,I),J.clip=pl(I,m.ori,_,S,k,y)}return j!=0&&(J.band=j==2?[Zt(o,n,l,r,B,-1),Zt(o,n,l,r,B,1)]:Zt(o,n,l,r,B,j)),J})}function Ed(e){let t=se(e.align,1),o=se(e.ascDesc,!1),n=se(e.alignGaps,0),l=se(e.extend,!1);return(r,a,c,u)=>Pn(r,a,(m,$,f,g,_,S,k,y,D,w,E)=>{[c,u]=cl(f,c,u);let C=m.pxRound,{left:q,width:N}=r.bbox,J=le=>C(S(le,g,w,y)),B=le=>C(k(le,_,E,D)),Z=g.ori==0?ao:so,W={stroke:new Path2D,fill:null,clip:null,band:null,gaps:null,flags:lo},P=W.stroke,j=g.dir*(g.ori==0?1:-1),I=B(f[j==1?c:u]),Y=J($[j==1?c:u]),U=Y,ne=Y;l&&t==-1&&(ne=q,Z(P,ne,I)),Z(P,Y,I);for(let le=j==1?c:u;le>=c&&le<=u;le+=j){let he=f[le];if(he==null)continue;let X=J($[le]),V=B(he);t==1?Z(P,X,I):Z(P,U,V),Z(P,X,V),I=V,U=X}let H=U;l&&t==1&&(H=q+N,Z(P,H,I));let[at,ke]=Or(r,a);if(m.fill!=null||at!=0){let le=W.fill=new Path2D(P),he=m.fillTo(r,a,m.min,m.max,at),X=B(he);Z(le,H,X),Z(le,ne,X)}if(!m.spanGaps){let le=[];le.push(...Fr($,f,c,u,j,J,n));let he=m.width*ce/2,X=o||t==1?he:-he,V=o||t==-1?-he:he;le.forEach(Fe=>{Fe[0]+=X,Fe[1]+=V}),W.gaps=le=m.gaps(r,a,c,u,le),W.clip=pl(le,g.ori,y,D,w,E)}return ke!=0&&(W.band=ke==2?[Zt(r,a,c,u,P,-1),Zt(r,a,c,u,P,1)]:Zt(r,a,c,u,P,ke)),W})}function Us(e,t,o,n,l,r,a=ge){if(e.length>1){let c=null;for(let u=0,m=1/0;u<e.length;u++)if(t[u]!==void 0){if(c!=null){let $=Ue(e[u]-e[c]);$<m&&(m=$,a=Ue(o(e[u],n,l,r)-o(e[c],n,l,r)))}c=u}}return a}function Ad(e){e=e||Lo;let t=se(e.size,[.6,ge,1]),o=e.align||0,n=e.gap||0,l=e.radius;l=l==null?[0,0]:typeof l=="number"?[l,0]:l;let r=te(l),a=1-t[0],c=se(t[1],ge),u=se(t[2],1),m=se(e.disp,Lo),$=se(e.each,_=>{}),{fill:f,stroke:g}=m;return(_,S,k,y)=>Pn(_,S,(D,w,E,C,q,N,J,B,Z,W,P)=>{let j=D.pxRound,I=o,Y=n*ce,U=c*ce,ne=u*ce,H,at;C.ori==0?[H,at]=r(_,S):[at,H]=r(_,S);let ke=C.dir*(C.ori==0?1:-1),le=C.ori==0?$l:Vr,he=C.ori==0?$:(R,be,Ve,Rn,hn,Nt,mn)=>{$(R,be,Ve,hn,Rn,mn,Nt)},X=se(_.bands,Lr).find(R=>R.series[0]==S),V=X!=null?X.dir:0,Fe=D.fillTo(_,S,D.min,D.max,V),Xe=j(J(Fe,q,P,Z)),Ce,ue,Ct,ut=W,Te=j(D.width*ce),Rt=!1,Yt=null,_t=null,en=null,Ln=null;f!=null&&(Te==0||g!=null)&&(Rt=!0,Yt=f.values(_,S,k,y),_t=new Map,new Set(Yt).forEach(R=>{R!=null&&_t.set(R,new Path2D)}),Te>0&&(en=g.values(_,S,k,y),Ln=new Map,new Set(en).forEach(R=>{R!=null&&Ln.set(R,new Path2D)})));let{x0:In,size:uo}=m;if(In!=null&&uo!=null){I=1,w=In.values(_,S,k,y),In.unit==2&&(w=w.map(Ve=>_.posToVal(B+Ve*W,C.key,!0)));let R=uo.values(_,S,k,y);uo.unit==2?ue=R[0]*W:ue=N(R[0],C,W,B)-N(0,C,W,B),ut=Us(w,E,N,C,W,B,ut),Ct=ut-ue+Y}else ut=Us(w,E,N,C,W,B,ut),Ct=ut*a+Y,ue=ut-Ct;Ct<1&&(Ct=0),Te>=ue/2&&(Te=0),Ct<5&&(j=Qs);let No=Ct>0,fn=ut-Ct-(No?Te:0);ue=j(vr(fn,ne,U)),Ce=(I==0?ue/2:I==ke?0:ue)-I*ke*((I==0?Y/2:0)+(No?Te/2:0));let et={stroke:null,fill:null,clip:null,band:null,gaps:null,flags:0},Mn=Rt?null:new Path2D,Kt=null;if(X!=null)Kt=_.data[X.series[1]];else{let{y0:R,y1:be}=m;R!=null&&be!=null&&(E=be.values(_,S,k,y),Kt=R.values(_,S,k,y))}let pn=H*ue,Q=at*ue;for(let R=ke==1?k:y;R>=k&&R<=y;R+=ke){let be=E[R];if(be==null)continue;if(Kt!=null){let st=Kt[R]??0;if(be-st==0)continue;Xe=J(st,q,P,Z)}let Ve=C.distr!=2||m!=null?w[R]:R,Rn=N(Ve,C,W,B),hn=J(se(be,Fe),q,P,Z),Nt=j(Rn-Ce),mn=j(rt(hn,Xe)),dt=j(Mt(hn,Xe)),bt=mn-dt;if(be!=null){let st=be<0?Q:pn,Et=be<0?pn:Q;Rt?(Te>0&&en[R]!=null&&le(Ln.get(en[R]),Nt,dt+$t(Te/2),ue,rt(0,bt-Te),st,Et),Yt[R]!=null&&le(_t.get(Yt[R]),Nt,dt+$t(Te/2),ue,rt(0,bt-Te),st,Et)):le(Mn,Nt,dt+$t(Te/2),ue,rt(0,bt-Te),st,Et),he(_,S,R,Nt-Te/2,dt,ue+Te,bt)}}return Te>0?et.stroke=Rt?Ln:Mn:Rt||(et._fill=D.width==0?D._fill:D._stroke??D._fill,et.width=0),et.fill=Rt?_t:Mn,et})}function Td(e,t){let o=se(t?.alignGaps,0);return(n,l,r,a)=>Pn(n,l,(c,u,m,$,f,g,_,S,k,y,D)=>{[r,a]=cl(m,r,a);let w=c.pxRound,E=H=>w(g(H,$,y,S)),C=H=>w(_(H,f,D,k)),q,N,J;$.ori==0?(q=hl,J=ao,N=xi):(q=ml,J=so,N=ki);let B=$.dir*($.ori==0?1:-1),Z=E(u[B==1?r:a]),W=Z,P=[],j=[];for(let H=B==1?r:a;H>=r&&H<=a;H+=B)if(m[H]!=null){let ke=u[H],le=E(ke);P.push(W=le),j.push(C(m[H]))}let I={stroke:e(P,j,q,J,N,w),fill:null,clip:null,band:null,gaps:null,flags:lo},Y=I.stroke,[U,ne]=Or(n,l);if(c.fill!=null||U!=0){let H=I.fill=new Path2D(Y),at=c.fillTo(n,l,c.min,c.max,U),ke=C(at);J(H,W,ke),J(H,Z,ke)}if(!c.spanGaps){let H=[];H.push(...Fr(u,m,r,a,B,E,o)),I.gaps=H=c.gaps(n,l,r,a,H),I.clip=pl(H,$.ori,S,k,y,D)}return ne!=0&&(I.band=ne==2?[Zt(n,l,r,a,Y,-1),Zt(n,l,r,a,Y,1)]:Zt(n,l,r,a,Y,ne)),I})}function Pd(e){return Td(Dd,e)}function Dd(e,t,o,n,l,r){let a=e.length;if(a<2)return null;let c=new Path2D;if(o(c,e[0],t[0]),a==2)n(c,e[1],t[1]);else{let u=Array(a),m=Array(a-1),$=Array(a-1),f=Array(a-1);for(let g=0;g<a-1;g++)$[g]=t[g+1]-t[g],f[g]=e[g+1]-e[g],m[g]=$[g]/f[g];u[0]=m[0];for(let g=1;g<a-1;g++)m[g]===0||m[g-1]===0||m[g-1]>0!=m[g]>0?u[g]=0:(u[g]=3*(f[g-1]+f[g])/((2*f[g]+f[g-1])/m[g-1]+(f[g]+2*f[g-1])/m[g]),isFinite(u[g])||(u[g]=0));u[a-1]=m[a-2];for(let g=0;g<a-1;g++)l(c,e[g]+f[g]/3,t[g]+u[g]*f[g]/3,e[g+1]-f[g]/3,t[g+1]-u[g+1]*f[g]/3,e[g+1],t[g+1])}return c}var xr=new Set;function Ws(){for(let e of xr)e.syncRect(!0)}ro&&(An(du,eo,Ws),An(fu,eo,Ws,!0),An(al,eo,()=>{qe.pxRatio=ce}));var Ld=Ai(),Id=Ci();function Bs(e,t,o,n){return(n?[e[0],e[1]].concat(e.slice(2)):[e[0]].concat(e.slice(1))).map((r,a)=>kr(r,a,t,o))}function Md(e,t){return e.map((o,n)=>n==0?{}:Oe({},t,o))}function kr(e,t,o,n){return Oe({},t==0?o:n,e)}function Ti(e,t,o){return t==null?no:[t,o]}var Rd=Ti;function Nd(e,t,o){return t==null?no:sl(t,o,Pr,!0)}function Pi(e,t,o,n){return t==null?no:ul(t,o,e.scales[n].log,!1)}var Od=Pi;function Di(e,t,o,n){return t==null?no:Tr(t,o,e.scales[n].log,!1)}var Fd=Di;function Vd(e,t,o,n,l){let r=rt(ws(e),ws(t)),a=t-e,c=It(l/n*a,o);do{let u=o[c],m=n*u/a;if(m>=l&&r+(u<5?dn.get(u):0)<=17)return[u,m]}while(++c<o.length);return[0,0]}function js(e){let t,o;return e=e.replace(/(\d+)px/,(n,l)=>(t=He((o=+l)*ce))+"px"),[e,t,o]}function zd(e){e.show&&[e.font,e.labelFont].forEach(t=>{let o=_e(t[2]*ce,1);t[0]=t[0].replace(/[0-9.]+px/,o+"px"),t[1]=o})}function qe(e,t,o){let n={mode:se(e.mode,1)},l=n.mode;function r(s,i,d,h){let b=i.valToPct(s);return h+d*(i.dir==-1?1-b:b)}function a(s,i,d,h){let b=i.valToPct(s);return h+d*(i.dir==-1?b:1-b)}function c(s,i,d,h){return i.ori==0?r(s,i,d,h):a(s,i,d,h)}n.valToPosH=r,n.valToPosV=a;let u=!1;n.status=0;let m=n.root=xt(Yc);if(e.id!=null&&(m.id=e.id),mt(m,e.class),e.title){let s=xt(Jc,m);s.textContent=e.title}let $=Lt("canvas"),f=n.ctx=$.getContext("2d"),g=xt(Qc,m);An("click",g,s=>{s.target===S&&(ye!=Gn||Ee!=Yn)&&Qe.click(n,s)},!0);let _=n.under=xt(Zc,g);g.appendChild($);let S=n.over=xt(Xc,g);e=oo(e);let k=+se(e.pxAlign,1),y=Hs(k);(e.plugins||[]).forEach(s=>{s.opts&&(e=s.opts(n,e)||e)});let D=e.ms||.001,w=n.series=l==1?Bs(e.series||[],Ms,Vs,!1):Md(e.series||[null],Fs),E=n.axes=Bs(e.axes||[],Is,Ns,!0),C=n.scales={},q=n.bands=e.bands||[];q.forEach(s=>{s.fill=te(s.fill||null),s.dir=se(s.dir,-1)});let N=l==2?w[1].facets[0].scale:w[0].scale,J={axes:fc,series:sc},B=(e.drawOrder||["axes","series"]).map(s=>J[s]);function Z(s){let i=s.distr==3?d=>Qt(d>0?d:s.clamp(n,d,s.min,s.max,s.key)):s.distr==4?d=>fr(d,s.asinh):s.distr==100?d=>s.fwd(d):d=>d;return d=>{let h=i(d),{_min:b,_max:v}=s,x=v-b;return(h-b)/x}}function W(s){let i=C[s];if(i==null){let d=(e.scales||Lo)[s]||Lo;if(d.from!=null){W(d.from);let h=Oe({},C[d.from],d,{key:s});h.valToPct=Z(h),C[s]=h}else{i=C[s]=Oe({},s==N?bi:wd,d),i.key=s;let h=i.time,b=i.range,v=un(b);if((s!=N||l==2&&!h)&&(v&&(b[0]==null||b[1]==null)&&(b={min:b[0]==null?bs:{mode:1,hard:b[0],soft:b[0]},max:b[1]==null?bs:{mode:1,hard:b[1],soft:b[1]}},v=!1),!v&&fl(b))){let x=b;b=(A,T,L)=>T==null?no:sl(T,L,x)}i.range=te(b||(h?Rd:s==N?i.distr==3?Od:i.distr==4?Fd:Ti:i.distr==3?Pi:i.distr==4?Di:Nd)),i.auto=te(v?!1:i.auto),i.clamp=te(i.clamp||yd),i._min=i._max=null,i.valToPct=Z(i)}}}W("x"),W("y"),l==1&&w.forEach(s=>{W(s.scale)}),E.forEach(s=>{W(s.scale)});for(let s in e.scales)W(s);let P=C[N],j=P.distr,I,Y;P.ori==0?(mt(m,Kc),I=r,Y=a):(mt(m,qc),I=a,Y=r);let U={};for(let s in C){let i=C[s];(i.min!=null||i.max!=null)&&(U[s]={min:i.min,max:i.max},i.min=i.max=null)}let ne=e.tzDate||(s=>new Date(He(s/D))),H=e.fmtDate||Ir,at=D==1?Ku(ne):Qu(ne),ke=Ps(ne,Ts(D==1?Yu:Ju,H)),le=Ls(ne,Ds(Xu,H)),he=[],X=n.legend=Oe({},nd,e.legend),V=n.cursor=Oe({},id,{drag:{y:l==2}},e.cursor),Fe=X.show,Xe=V.show,Ce=X.markers;X.idxs=he,Ce.width=te(Ce.width),Ce.dash=te(Ce.dash),Ce.stroke=te(Ce.stroke),Ce.fill=te(Ce.fill);let ue,Ct,ut,Te=[],Rt=[],Yt,_t=!1,en={};if(X.live){let s=w[1]?w[1].values:null;_t=s!=null,Yt=_t?s(n,1,0):{_:0};for(let i in Yt)en[i]=Er}if(Fe)if(ue=Lt("table",ru,m),ut=Lt("tbody",null,ue),X.mount(n,ue),_t){Ct=Lt("thead",null,ue,ut);let s=Lt("tr",null,Ct);Lt("th",null,s);for(var Ln in Yt)Lt("th",as,s).textContent=Ln}else mt(ue,su),X.live&&mt(ue,au);let In={show:!0},uo={show:!1};function No(s,i){if(i==0&&(_t||!X.live||l==2))return no;let d=[],h=Lt("tr",iu,ut,ut.childNodes[i]);mt(h,s.class),s.show||mt(h,En);let b=Lt("th",null,h);if(Ce.show){let A=xt(cu,b);if(i>0){let T=Ce.width(n,i);T&&(A.style.border=T+"px "+Ce.dash(n,i)+" "+Ce.stroke(n,i)),A.style.background=Ce.fill(n,i)}}let v=xt(as,b);s.label instanceof HTMLElement?v.appendChild(s.label):v.textContent=s.label,i>0&&(Ce.show||(v.style.color=s.width>0?Ce.stroke(n,i):Ce.fill(n,i)),et("click",b,A=>{if(V._lock)return;gn(A);let T=w.indexOf(s);if((A.ctrlKey||A.metaKey)!=X.isolate){let L=w.some((M,O)=>O>0&&O!=T&&M.show);w.forEach((M,O)=>{O>0&&Ft(O,L?O==T?In:uo:In,!0,Me.setSeries)})}else Ft(T,{show:!s.show},!0,Me.setSeries)},!1),On&&et(us,b,A=>{V._lock||(gn(A),Ft(w.indexOf(s),qn,!0,Me.setSeries))},!1));for(var x in Yt){let A=Lt("td",uu,h);A.textContent="--",d.push(A)}return[h,d]}let fn=new Map;function et(s,i,d,h=!0){let b=fn.get(i)||{},v=V.bind[s](n,i,d,h);v&&(An(s,i,b[s]=v),fn.set(i,b))}function Mn(s,i,d){let h=fn.get(i)||{};for(let b in h)(s==null||b==s)&&(br(b,i,h[b]),delete h[b]);s==null&&fn.delete(i)}let Kt=0,pn=0,Q=0,R=0,be=0,Ve=0,Rn=be,hn=Ve,Nt=Q,mn=R,dt=0,bt=0,st=0,Et=0;n.bbox={};let wl=!1,Oo=!1,Nn=!1,$n=!1,Fo=!1,vt=!1;function Sl(s,i,d){(d||s!=n.width||i!=n.height)&&Yr(s,i),Un(!1),Nn=!0,Oo=!0,Wn()}function Yr(s,i){n.width=Kt=Q=s,n.height=pn=R=i,be=Ve=0,ec(),tc();let d=n.bbox;dt=d.left=kn(be*ce,.5),bt=d.top=kn(Ve*ce,.5),st=d.width=kn(Q*ce,.5),Et=d.height=kn(R*ce,.5)}let Qi=3;function Zi(){let s=!1,i=0;for(;!s;){i++;let d=uc(i),h=dc(i);s=i==Qi||d&&h,s||(Yr(n.width,n.height),Oo=!0)}}function Xi({width:s,height:i}){Sl(s,i)}n.setSize=Xi;function ec(){let s=!1,i=!1,d=!1,h=!1;E.forEach((b,v)=>{if(b.show&&b._show){let{side:x,_size:A}=b,T=x%2,L=b.label!=null?b.labelSize:0,M=A+L;M>0&&(T?(Q-=M,x==3?(be+=M,h=!0):d=!0):(R-=M,x==0?(Ve+=M,s=!0):i=!0))}}),_n[0]=s,_n[1]=d,_n[2]=i,_n[3]=h,Q-=tn[1]+tn[3],be+=tn[3],R-=tn[2]+tn[0],Ve+=tn[0]}function tc(){let s=be+Q,i=Ve+R,d=be,h=Ve;function b(v,x){switch(v){case 1:return s+=x,s-x;case 2:return i+=x,i-x;case 3:return d-=x,d+x;case 0:return h-=x,h+x}}E.forEach((v,x)=>{if(v.show&&v._show){let A=v.side;v._pos=b(A,v._size),v.label!=null&&(v._lpos=b(A,v.labelSize))}})}if(V.dataIdx==null){let s=V.hover,i=s.skip=new Set(s.skip??[]);i.add(void 0);let d=s.prox=te(s.prox),h=s.bias??(s.bias=0);V.dataIdx=(b,v,x,A)=>{if(v==0)return x;let T=x,L=d(b,v,x,A)??ge,M=L>=0&&L<ge,O=P.ori==0?Q:R,K=V.left,ie=t[0],re=t[v];if(i.has(re[x])){T=null;let ee=null,G=null,z;if(h==0||h==-1)for(z=x;ee==null&&z-- >0;)i.has(re[z])||(ee=z);if(h==0||h==1)for(z=x;G==null&&z++<re.length;)i.has(re[z])||(G=z);if(ee!=null||G!=null)if(M){let Se=ee==null?-1/0:I(ie[ee],P,O,0),De=G==null?1/0:I(ie[G],P,O,0),Ke=K-Se,me=De-K;Ke<=me?Ke<=L&&(T=ee):me<=L&&(T=G)}else T=G==null?ee:ee==null?G:x-ee<=G-x?ee:G}else M&&Ue(K-I(ie[x],P,O,0))>L&&(T=null);return T}}let gn=s=>{V.event=s};V.idxs=he,V._lock=!1;let Ze=V.points;Ze.show=te(Ze.show),Ze.size=te(Ze.size),Ze.stroke=te(Ze.stroke),Ze.width=te(Ze.width),Ze.fill=te(Ze.fill);let Ot=n.focus=Oe({},e.focus||{alpha:.3},V.focus),On=Ot.prox>=0,Fn=On&&Ze.one,yt=[],Vn=[],zn=[];function Kr(s,i){let d=Ze.show(n,i);if(d instanceof HTMLElement)return mt(d,lu),mt(d,s.class),Gt(d,-10,-10,Q,R),S.insertBefore(d,yt[i]),d}function qr(s,i){if(l==1||i>0){let d=l==1&&C[s.scale].time,h=s.value;s.value=d?ks(h)?Ls(ne,Ds(h,H)):h||le:h||_d,s.label=s.label||(d?ud:cd)}if(Fn||i>0){s.width=s.width==null?1:s.width,s.paths=s.paths||Ld||wu,s.fillTo=te(s.fillTo||Sd),s.pxAlign=+se(s.pxAlign,k),s.pxRound=Hs(s.pxAlign),s.stroke=te(s.stroke||null),s.fill=te(s.fill||null),s._stroke=s._fill=s._paths=s._focus=null;let d=bd(rt(1,s.width),1),h=s.points=Oe({},{size:d,width:rt(1,d*.2),stroke:s.stroke,space:d*2,paths:Id,_stroke:null,_fill:null},s.points);h.show=te(h.show),h.filter=te(h.filter),h.fill=te(h.fill),h.stroke=te(h.stroke),h.paths=te(h.paths),h.pxAlign=s.pxAlign}if(Fe){let d=No(s,i);Te.splice(i,0,d[0]),Rt.splice(i,0,d[1]),X.values.push(null)}if(Xe){he.splice(i,0,null);let d=null;Fn?i==0&&(d=Kr(s,i)):i>0&&(d=Kr(s,i)),yt.splice(i,0,d),Vn.splice(i,0,0),zn.splice(i,0,0)}Ye("addSeries",i)}function nc(s,i){i=i??w.length,s=l==1?kr(s,i,Ms,Vs):kr(s,i,{},Fs),w.splice(i,0,s),qr(w[i],i)}n.addSeries=nc;function oc(s){if(w.splice(s,1),Fe){X.values.splice(s,1),Rt.splice(s,1);let i=Te.splice(s,1)[0];Mn(null,i.firstChild),i.remove()}Xe&&(he.splice(s,1),yt.splice(s,1)[0].remove(),Vn.splice(s,1),zn.splice(s,1)),Ye("delSeries",s)}n.delSeries=oc;let _n=[!1,!1,!1,!1];function lc(s,i){if(s._show=s.show,s.show){let d=s.side%2,h=C[s.scale];h==null&&(s.scale=d?w[1].scale:N,h=C[s.scale]);let b=h.time;s.size=te(s.size),s.space=te(s.space),s.rotate=te(s.rotate),un(s.incrs)&&s.incrs.forEach(x=>{!dn.has(x)&&dn.set(x,ei(x))}),s.incrs=te(s.incrs||(h.distr==2?Bu:b?D==1?Gu:qu:Cn)),s.splits=te(s.splits||(b&&h.distr==1?at:h.distr==3?yr:h.distr==4?pd:fd)),s.stroke=te(s.stroke),s.grid.stroke=te(s.grid.stroke),s.ticks.stroke=te(s.ticks.stroke),s.border.stroke=te(s.border.stroke);let v=s.values;s.values=un(v)&&!un(v[0])?te(v):b?un(v)?Ps(ne,Ts(v,H)):ks(v)?Zu(ne,v):v||ke:v||dd,s.filter=te(s.filter||(h.distr>=3&&h.log==10?$d:h.distr==3&&h.log==2?gd:Zs)),s.font=js(s.font),s.labelFont=js(s.labelFont),s._size=s.size(n,null,i,0),s._space=s._rotate=s._incrs=s._found=s._splits=s._values=null,s._size>0&&(_n[i]=!0,s._el=xt(eu,g))}}function fo(s,i,d,h){let[b,v,x,A]=d,T=i%2,L=0;return T==0&&(A||v)&&(L=i==0&&!b||i==2&&!x?He(Is.size/3):0),T==1&&(b||x)&&(L=i==1&&!v||i==3&&!A?He(Ns.size/2):0),L}let Jr=n.padding=(e.padding||[fo,fo,fo,fo]).map(s=>te(se(s,fo))),tn=n._padding=Jr.map((s,i)=>s(n,i,_n,0)),Je,We=null,Be=null,Vo=l==1?w[0].idxs:null,At=null,po=!1;function Qr(s,i){if(t=s??[],n.data=n._data=t,l==2){Je=0;for(let d=1;d<w.length;d++)Je+=t[d][0].length}else{t.length==0&&(n.data=n._data=t=[[]]),At=t[0],Je=At.length;let d=t;if(j==2){d=t.slice();let h=d[0]=Array(Je);for(let b=0;b<Je;b++)h[b]=b}n._data=t=d}if(Un(!0),Ye("setData"),j==2&&(Nn=!0),i!==!1){let d=P;d.auto(n,po)?xl():on(N,d.min,d.max),$n=$n||V.left>=0,vt=!0,Wn()}}n.setData=Qr;function xl(){po=!0;let s,i;l==1&&(Je>0?(We=Vo[0]=0,Be=Vo[1]=Je-1,s=t[0][We],i=t[0][Be],j==2?(s=We,i=Be):s==i&&(j==3?[s,i]=ul(s,s,P.log,!1):j==4?[s,i]=Tr(s,s,P.log,!1):P.time?i=s+He(86400/D):[s,i]=sl(s,i,Pr,!0))):(We=Vo[0]=s=null,Be=Vo[1]=i=null)),on(N,s,i)}let zo,Hn,kl,Cl,El,Al,Tl,Pl,Dl,it;function Zr(s,i,d,h,b,v){s??(s=is),d??(d=Lr),h??(h="butt"),b??(b=is),v??(v="round"),s!=zo&&(f.strokeStyle=zo=s),b!=Hn&&(f.fillStyle=Hn=b),i!=kl&&(f.lineWidth=kl=i),v!=El&&(f.lineJoin=El=v),h!=Al&&(f.lineCap=Al=h),d!=Cl&&f.setLineDash(Cl=d)}function Xr(s,i,d,h){i!=Hn&&(f.fillStyle=Hn=i),s!=Tl&&(f.font=Tl=s),d!=Pl&&(f.textAlign=Pl=d),h!=Dl&&(f.textBaseline=Dl=h)}function Ll(s,i,d,h,b=0){if(h.length>0&&s.auto(n,po)&&(i==null||i.min==null)){let v=se(We,0),x=se(Be,h.length-1),A=d.min==null?$u(h,v,x,b,s.distr==3):[d.min,d.max];s.min=Mt(s.min,d.min=A[0]),s.max=rt(s.max,d.max=A[1])}}let ea={min:null,max:null};function rc(){for(let h in C){let b=C[h];U[h]==null&&(b.min==null||U[N]!=null&&b.auto(n,po))&&(U[h]=ea)}for(let h in C){let b=C[h];U[h]==null&&b.from!=null&&U[b.from]!=null&&(U[h]=ea)}U[N]!=null&&Un(!0);let s={};for(let h in U){let b=U[h];if(b!=null){let v=s[h]=oo(C[h],ku);if(b.min!=null)Oe(v,b);else if(h!=N||l==2)if(Je==0&&v.from==null){let x=v.range(n,null,null,h);v.min=x[0],v.max=x[1]}else v.min=ge,v.max=-ge}}if(Je>0){w.forEach((h,b)=>{if(l==1){let v=h.scale,x=U[v];if(x==null)return;let A=s[v];if(b==0){let T=A.range(n,A.min,A.max,v);A.min=T[0],A.max=T[1],We=It(A.min,t[0]),Be=It(A.max,t[0]),Be-We>1&&(t[0][We]<A.min&&We++,t[0][Be]>A.max&&Be--),h.min=At[We],h.max=At[Be]}else h.show&&h.auto&&Ll(A,x,h,t[b],h.sorted);h.idxs[0]=We,h.idxs[1]=Be}else if(b>0&&h.show&&h.auto){let[v,x]=h.facets,A=v.scale,T=x.scale,[L,M]=t[b],O=s[A],K=s[T];O!=null&&Ll(O,U[A],v,L,v.sorted),K!=null&&Ll(K,U[T],x,M,x.sorted),h.min=x.min,h.max=x.max}});for(let h in s){let b=s[h],v=U[h];if(b.from==null&&(v==null||v.min==null)){let x=b.range(n,b.min==ge?null:b.min,b.max==-ge?null:b.max,h);b.min=x[0],b.max=x[1]}}}for(let h in s){let b=s[h];if(b.from!=null){let v=s[b.from];if(v.min==null)b.min=b.max=null;else{let x=b.range(n,v.min,v.max,h);b.min=x[0],b.max=x[1]}}}let i={},d=!1;for(let h in s){let b=s[h],v=C[h];if(v.min!=b.min||v.max!=b.max){v.min=b.min,v.max=b.max;let x=v.distr;v._min=x==3?Qt(v.min):x==4?fr(v.min,v.asinh):x==100?v.fwd(v.min):v.min,v._max=x==3?Qt(v.max):x==4?fr(v.max,v.asinh):x==100?v.fwd(v.max):v.max,i[h]=d=!0}}if(d){w.forEach((h,b)=>{l==2?b>0&&i.y&&(h._paths=null):i[h.scale]&&(h._paths=null)});for(let h in i)Nn=!0,Ye("setScale",h);Xe&&V.left>=0&&($n=vt=!0)}for(let h in U)U[h]=null}function ac(s){let i=vr(We-1,0,Je-1),d=vr(Be+1,0,Je-1);for(;s[i]==null&&i>0;)i--;for(;s[d]==null&&d<Je-1;)d++;return[i,d]}function sc(){if(Je>0){let s=w.some(i=>i._focus)&&it!=Ot.alpha;s&&(f.globalAlpha=it=Ot.alpha),w.forEach((i,d)=>{if(d>0&&i.show&&(ta(d,!1),ta(d,!0),i._paths==null)){let h=it;it!=i.alpha&&(f.globalAlpha=it=i.alpha);let b=l==2?[0,t[d][0].length-1]:ac(t[d]);i._paths=i.paths(n,d,b[0],b[1]),it!=h&&(f.globalAlpha=it=h)}}),w.forEach((i,d)=>{if(d>0&&i.show){let h=it;it!=i.alpha&&(f.globalAlpha=it=i.alpha),i._paths!=null&&na(d,!1);{let b=i._paths!=null?i._paths.gaps:null,v=i.points.show(n,d,We,Be,b),x=i.points.filter(n,d,v,b);(v||x)&&(i.points._paths=i.points.paths(n,d,We,Be,x),na(d,!0))}it!=h&&(f.globalAlpha=it=h),Ye("drawSeries",d)}}),s&&(f.globalAlpha=it=1)}}function ta(s,i){let d=i?w[s].points:w[s];d._stroke=d.stroke(n,s),d._fill=d.fill(n,s)}function na(s,i){let d=i?w[s].points:w[s],{stroke:h,fill:b,clip:v,flags:x,_stroke:A=d._stroke,_fill:T=d._fill,_width:L=d.width}=d._paths;L=_e(L*ce,3);let M=null,O=L%2/2;i&&T==null&&(T=L>0?"#fff":A);let K=d.pxAlign==1&&O>0;if(K&&f.translate(O,O),!i){let ie=dt-L/2,re=bt-L/2,ee=st+L,G=Et+L;M=new Path2D,M.rect(ie,re,ee,G)}i?Il(A,L,d.dash,d.cap,T,h,b,x,v):ic(s,A,L,d.dash,d.cap,T,h,b,x,M,v),K&&f.translate(-O,-O)}function ic(s,i,d,h,b,v,x,A,T,L,M){let O=!1;T!=0&&q.forEach((K,ie)=>{if(K.series[0]==s){let re=w[K.series[1]],ee=t[K.series[1]],G=(re._paths||Lo).band;un(G)&&(G=K.dir==1?G[0]:G[1]);let z,Se=null;re.show&&G&&_u(ee,We,Be)?(Se=K.fill(n,ie)||v,z=re._paths.clip):G=null,Il(i,d,h,b,Se,x,A,T,L,M,z,G),O=!0}}),O||Il(i,d,h,b,v,x,A,T,L,M)}let oa=lo|Sr;function Il(s,i,d,h,b,v,x,A,T,L,M,O){Zr(s,i,d,h,b),(T||L||O)&&(f.save(),T&&f.clip(T),L&&f.clip(L)),O?(A&oa)==oa?(f.clip(O),M&&f.clip(M),Uo(b,x),Ho(s,v,i)):A&Sr?(Uo(b,x),f.clip(O),Ho(s,v,i)):A&lo&&(f.save(),f.clip(O),M&&f.clip(M),Uo(b,x),f.restore(),Ho(s,v,i)):(Uo(b,x),Ho(s,v,i)),(T||L||O)&&f.restore()}function Ho(s,i,d){d>0&&(i instanceof Map?i.forEach((h,b)=>{f.strokeStyle=zo=b,f.stroke(h)}):i!=null&&s&&f.stroke(i))}function Uo(s,i){i instanceof Map?i.forEach((d,h)=>{f.fillStyle=Hn=h,f.fill(d)}):i!=null&&s&&f.fill(i)}function cc(s,i,d,h){let b=E[s],v;if(h<=0)v=[0,0];else{let x=b._space=b.space(n,s,i,d,h),A=b._incrs=b.incrs(n,s,i,d,h,x);v=Vd(i,d,A,h,x)}return b._found=v}function Ml(s,i,d,h,b,v,x,A,T,L){let M=x%2/2;k==1&&f.translate(M,M),Zr(A,x,T,L,A),f.beginPath();let O,K,ie,re,ee=b+(h==0||h==3?-v:v);d==0?(K=b,re=ee):(O=b,ie=ee);for(let G=0;G<s.length;G++)i[G]!=null&&(d==0?O=ie=s[G]:K=re=s[G],f.moveTo(O,K),f.lineTo(ie,re));f.stroke(),k==1&&f.translate(-M,-M)}function uc(s){let i=!0;return E.forEach((d,h)=>{if(!d.show)return;let b=C[d.scale];if(b.min==null){d._show&&(i=!1,d._show=!1,Un(!1));return}else d._show||(i=!1,d._show=!0,Un(!1));let v=d.side,x=v%2,{min:A,max:T}=b,[L,M]=cc(h,A,T,x==0?Q:R);if(M==0)return;let O=b.distr==2,K=d._splits=d.splits(n,h,A,T,L,M,O),ie=b.distr==2?K.map(z=>At[z]):K,re=b.distr==2?At[K[1]]-At[K[0]]:L,ee=d._values=d.values(n,d.filter(n,ie,h,M,re),h,M,re);d._rotate=v==2?d.rotate(n,ee,h,M):0;let G=d._size;d._size=kt(d.size(n,ee,h,s)),G!=null&&d._size!=G&&(i=!1)}),i}function dc(s){let i=!0;return Jr.forEach((d,h)=>{let b=d(n,h,_n,s);b!=tn[h]&&(i=!1),tn[h]=b}),i}function fc(){for(let s=0;s<E.length;s++){let i=E[s];if(!i.show||!i._show)continue;let d=i.side,h=d%2,b,v,x=i.stroke(n,s),A=d==0||d==3?-1:1,[T,L]=i._found;if(i.label!=null){let nt=i.labelGap*A,ht=He((i._lpos+nt)*ce);Xr(i.labelFont[0],x,"center",d==2?"top":ss),f.save(),h==1?(b=v=0,f.translate(ht,He(bt+Et/2)),f.rotate((d==3?-rl:rl)/2)):(b=He(dt+st/2),v=ht);let yn=Js(i.label)?i.label(n,s,T,L):i.label;f.fillText(yn,b,v),f.restore()}if(L==0)continue;let M=C[i.scale],O=h==0?st:Et,K=h==0?dt:bt,ie=i._splits,re=M.distr==2?ie.map(nt=>At[nt]):ie,ee=M.distr==2?At[ie[1]]-At[ie[0]]:T,G=i.ticks,z=i.border,Se=G.show?G.size:0,De=He(Se*ce),Ke=He((i.alignTo==2?i._size-Se-i.gap:i.gap)*ce),me=i._rotate*-rl/180,Le=y(i._pos*ce),ft=(De+Ke)*A,tt=Le+ft;v=h==0?tt:0,b=h==1?tt:0;let wt=i.font[0],Tt=i.align==1?Zn:i.align==2?cr:me>0?Zn:me<0?cr:h==0?"center":d==3?cr:Zn,zt=me||h==1?"middle":d==2?"top":ss;Xr(wt,x,Tt,zt);let pt=i.font[1]*i.lineGap,St=ie.map(nt=>y(c(nt,M,O,K))),Pt=i._values;for(let nt=0;nt<Pt.length;nt++){let ht=Pt[nt];if(ht!=null){h==0?b=St[nt]:v=St[nt],ht=""+ht;let yn=ht.indexOf(`
`)==-1?[ht]:ht.split(/\n/gm);for(let ot=0;ot<yn.length;ot++){let wa=yn[ot];me?(f.save(),f.translate(b,v+ot*pt),f.rotate(me),f.fillText(wa,0,0),f.restore()):f.fillText(wa,b,v+ot*pt)}}}G.show&&Ml(St,G.filter(n,re,s,L,ee),h,d,Le,De,_e(G.width*ce,3),G.stroke(n,s),G.dash,G.cap);let Ht=i.grid;Ht.show&&Ml(St,Ht.filter(n,re,s,L,ee),h,h==0?2:1,h==0?bt:dt,h==0?Et:st,_e(Ht.width*ce,3),Ht.stroke(n,s),Ht.dash,Ht.cap),z.show&&Ml([Le],[1],h==0?1:0,h==0?1:2,h==1?bt:dt,h==1?Et:st,_e(z.width*ce,3),z.stroke(n,s),z.dash,z.cap)}Ye("drawAxes")}function Un(s){w.forEach((i,d)=>{d>0&&(i._paths=null,s&&(l==1?(i.min=null,i.max=null):i.facets.forEach(h=>{h.min=null,h.max=null})))})}let Wo=!1,Rl=!1,ho=[];function pc(){Rl=!1;for(let s=0;s<ho.length;s++)Ye(...ho[s]);ho.length=0}function Wn(){Wo||(Lu(la),Wo=!0)}function hc(s,i=!1){Wo=!0,Rl=i,s(n),la(),i&&ho.length>0&&queueMicrotask(pc)}n.batch=hc;function la(){if(wl&&(rc(),wl=!1),Nn&&(Zi(),Nn=!1),Oo){if(xe(_,Zn,be),xe(_,"top",Ve),xe(_,Ao,Q),xe(_,To,R),xe(S,Zn,be),xe(S,"top",Ve),xe(S,Ao,Q),xe(S,To,R),xe(g,Ao,Kt),xe(g,To,pn),$.width=He(Kt*ce),$.height=He(pn*ce),E.forEach(({_el:s,_show:i,_size:d,_pos:h,side:b})=>{if(s!=null)if(i){let v=b===3||b===0?d:0,x=b%2==1;xe(s,x?"left":"top",h-v),xe(s,x?"width":"height",d),xe(s,x?"top":"left",x?Ve:be),xe(s,x?"height":"width",x?R:Q),_r(s,En)}else mt(s,En)}),zo=Hn=kl=El=Al=Tl=Pl=Dl=Cl=null,it=1,go(!0),be!=Rn||Ve!=hn||Q!=Nt||R!=mn){Un(!1);let s=Q/Nt,i=R/mn;if(Xe&&!$n&&V.left>=0){V.left*=s,V.top*=i,Bn&&Gt(Bn,He(V.left),0,Q,R),jn&&Gt(jn,0,He(V.top),Q,R);for(let d=0;d<yt.length;d++){let h=yt[d];h!=null&&(Vn[d]*=s,zn[d]*=i,Gt(h,kt(Vn[d]),kt(zn[d]),Q,R))}}if(we.show&&!Fo&&we.left>=0&&we.width>0){we.left*=s,we.width*=s,we.top*=i,we.height*=i;for(let d in Hl)xe(Kn,d,we[d])}Rn=be,hn=Ve,Nt=Q,mn=R}Ye("setSize"),Oo=!1}Kt>0&&pn>0&&(f.clearRect(0,0,$.width,$.height),Ye("drawClear"),B.forEach(s=>s()),Ye("draw")),we.show&&Fo&&(Bo(we),Fo=!1),Xe&&$n&&(vn(null,!0,!1),$n=!1),X.show&&X.live&&vt&&(Vl(),vt=!1),u||(u=!0,n.status=1,Ye("ready")),po=!1,Wo=!1}n.redraw=(s,i)=>{Nn=i||!1,s!==!1?on(N,P.min,P.max):Wn()};function Nl(s,i){let d=C[s];if(d.from==null){if(Je==0){let h=d.range(n,i.min,i.max,s);i.min=h[0],i.max=h[1]}if(i.min>i.max){let h=i.min;i.min=i.max,i.max=h}if(Je>1&&i.min!=null&&i.max!=null&&i.max-i.min<1e-16)return;s==N&&d.distr==2&&Je>0&&(i.min=It(i.min,t[0]),i.max=It(i.max,t[0]),i.min==i.max&&i.max++),U[s]=i,wl=!0,Wn()}}n.setScale=Nl;let Ol,Fl,Bn,jn,ra,aa,Gn,Yn,sa,ia,ye,Ee,nn=!1,Qe=V.drag,je=Qe.x,Ge=Qe.y;Xe&&(V.x&&(Ol=xt(nu,S)),V.y&&(Fl=xt(ou,S)),P.ori==0?(Bn=Ol,jn=Fl):(Bn=Fl,jn=Ol),ye=V.left,Ee=V.top);let we=n.select=Oe({show:!0,over:!0,left:0,width:0,top:0,height:0},e.select),Kn=we.show?xt(tu,we.over?S:_):null;function Bo(s,i){if(we.show){for(let d in s)we[d]=s[d],d in Hl&&xe(Kn,d,s[d]);i!==!1&&Ye("setSelect")}}n.setSelect=Bo;function mc(s){if(w[s].show)Fe&&_r(Te[s],En);else if(Fe&&mt(Te[s],En),Xe){let d=Fn?yt[0]:yt[s];d!=null&&Gt(d,-10,-10,Q,R)}}function on(s,i,d){Nl(s,{min:i,max:d})}function Ft(s,i,d,h){i.focus!=null&&vc(s),i.show!=null&&w.forEach((b,v)=>{v>0&&(s==v||s==null)&&(b.show=i.show,mc(v),l==2?(on(b.facets[0].scale,null,null),on(b.facets[1].scale,null,null)):on(b.scale,null,null),Wn())}),d!==!1&&Ye("setSeries",s,i),h&&_o("setSeries",n,s,i)}n.setSeries=Ft;function $c(s,i){Oe(q[s],i)}function gc(s,i){s.fill=te(s.fill||null),s.dir=se(s.dir,-1),i=i??q.length,q.splice(i,0,s)}function _c(s){s==null?q.length=0:q.splice(s,1)}n.addBand=gc,n.setBand=$c,n.delBand=_c;function bc(s,i){w[s].alpha=i,Xe&&yt[s]!=null&&(yt[s].style.opacity=i),Fe&&Te[s]&&(Te[s].style.opacity=i)}let qt,ln,bn,qn={focus:!0};function vc(s){if(s!=bn){let i=s==null,d=Ot.alpha!=1;w.forEach((h,b)=>{if(l==1||b>0){let v=i||b==0||b==s;h._focus=i?null:v,d&&bc(b,v?1:Ot.alpha)}}),bn=s,d&&Wn()}}Fe&&On&&et(ds,ue,s=>{V._lock||(gn(s),bn!=null&&Ft(null,qn,!0,Me.setSeries))});function Vt(s,i,d){let h=C[i];d&&(s=s/ce-(h.ori==1?Ve:be));let b=Q;h.ori==1&&(b=R,s=b-s),h.dir==-1&&(s=b-s);let v=h._min,x=h._max,A=s/b,T=v+(x-v)*A,L=h.distr;return L==3?to(10,T):L==4?vu(T,h.asinh):L==100?h.bwd(T):T}function yc(s,i){let d=Vt(s,N,i);return It(d,t[0],We,Be)}n.valToIdx=s=>It(s,t[0]),n.posToIdx=yc,n.posToVal=Vt,n.valToPos=(s,i,d)=>C[i].ori==0?r(s,C[i],d?st:Q,d?dt:0):a(s,C[i],d?Et:R,d?bt:0),n.setCursor=(s,i,d)=>{ye=s.left,Ee=s.top,vn(null,i,d)};function ca(s,i){xe(Kn,Zn,we.left=s),xe(Kn,Ao,we.width=i)}function ua(s,i){xe(Kn,"top",we.top=s),xe(Kn,To,we.height=i)}let mo=P.ori==0?ca:ua,$o=P.ori==1?ca:ua;function wc(){if(Fe&&X.live)for(let s=l==2?1:0;s<w.length;s++){if(s==0&&_t)continue;let i=X.values[s],d=0;for(let h in i)Rt[s][d++].firstChild.nodeValue=i[h]}}function Vl(s,i){if(s!=null&&(s.idxs?s.idxs.forEach((d,h)=>{he[h]=d}):xu(s.idx)||he.fill(s.idx),X.idx=he[0]),Fe&&X.live){for(let d=0;d<w.length;d++)(d>0||l==1&&!_t)&&Sc(d,he[d]);wc()}vt=!1,i!==!1&&Ye("setLegend")}n.setLegend=Vl;function Sc(s,i){let d=w[s],h=s==0&&j==2?At:t[s],b;_t?b=d.values(n,s,i)??en:(b=d.value(n,i==null?null:h[i],s,i),b=b==null?en:{_:b}),X.values[s]=b}function vn(s,i,d){sa=ye,ia=Ee,[ye,Ee]=V.move(n,ye,Ee),V.left=ye,V.top=Ee,Xe&&(Bn&&Gt(Bn,He(ye),0,Q,R),jn&&Gt(jn,0,He(Ee),Q,R));let h,b=We>Be;qt=ge,ln=null;let v=P.ori==0?Q:R,x=P.ori==1?Q:R;if(ye<0||Je==0||b){h=V.idx=null;for(let A=0;A<w.length;A++){let T=yt[A];T!=null&&Gt(T,-10,-10,Q,R)}On&&Ft(null,qn,!0,s==null&&Me.setSeries),X.live&&(he.fill(h),vt=!0)}else{let A,T,L;l==1&&(A=P.ori==0?ye:Ee,T=Vt(A,N),h=V.idx=It(T,t[0],We,Be),L=I(t[0][h],P,v,0));let M=-10,O=-10,K=0,ie=0,re=!0,ee="",G="";for(let z=l==2?1:0;z<w.length;z++){let Se=w[z],De=he[z],Ke=De==null?null:l==1?t[z][De]:t[z][1][De],me=V.dataIdx(n,z,h,T),Le=me==null?null:l==1?t[z][me]:t[z][1][me];if(vt=vt||Le!=Ke||me!=De,he[z]=me,z>0&&Se.show){let ft=me==null?-10:me==h?L:I(l==1?t[0][me]:t[z][0][me],P,v,0),tt=Le==null?-10:Y(Le,l==1?C[Se.scale]:C[Se.facets[1].scale],x,0);if(On&&Le!=null){let wt=P.ori==1?ye:Ee,Tt=Ue(Ot.dist(n,z,me,tt,wt));if(Tt<qt){let zt=Ot.bias;if(zt!=0){let pt=Vt(wt,Se.scale),St=Le>=0?1:-1,Pt=pt>=0?1:-1;Pt==St&&(Pt==1?zt==1?Le>=pt:Le<=pt:zt==1?Le<=pt:Le>=pt)&&(qt=Tt,ln=z)}else qt=Tt,ln=z}}if(vt||Fn){let wt,Tt;P.ori==0?(wt=ft,Tt=tt):(wt=tt,Tt=ft);let zt,pt,St,Pt,Ht,nt,ht=!0,yn=Ze.bbox;if(yn!=null){ht=!1;let ot=yn(n,z);St=ot.left,Pt=ot.top,zt=ot.width,pt=ot.height}else St=wt,Pt=Tt,zt=pt=Ze.size(n,z);if(nt=Ze.fill(n,z),Ht=Ze.stroke(n,z),Fn)z==ln&&qt<=Ot.prox&&(M=St,O=Pt,K=zt,ie=pt,re=ht,ee=nt,G=Ht);else{let ot=yt[z];ot!=null&&(Vn[z]=St,zn[z]=Pt,_s(ot,zt,pt,ht),$s(ot,nt,Ht),Gt(ot,kt(St),kt(Pt),Q,R))}}}}if(Fn){let z=Ot.prox,Se=bn==null?qt<=z:qt>z||ln!=bn;if(vt||Se){let De=yt[0];De!=null&&(Vn[0]=M,zn[0]=O,_s(De,K,ie,re),$s(De,ee,G),Gt(De,kt(M),kt(O),Q,R))}}}if(we.show&&nn)if(s!=null){let[A,T]=Me.scales,[L,M]=Me.match,[O,K]=s.cursor.sync.scales,ie=s.cursor.drag;if(je=ie._x,Ge=ie._y,je||Ge){let{left:re,top:ee,width:G,height:z}=s.select,Se=s.scales[O].ori,De=s.posToVal,Ke,me,Le,ft,tt,wt=A!=null&&L(A,O),Tt=T!=null&&M(T,K);wt&&je?(Se==0?(Ke=re,me=G):(Ke=ee,me=z),Le=C[A],ft=I(De(Ke,O),Le,v,0),tt=I(De(Ke+me,O),Le,v,0),mo(Mt(ft,tt),Ue(tt-ft))):mo(0,v),Tt&&Ge?(Se==1?(Ke=re,me=G):(Ke=ee,me=z),Le=C[T],ft=Y(De(Ke,K),Le,x,0),tt=Y(De(Ke+me,K),Le,x,0),$o(Mt(ft,tt),Ue(tt-ft))):$o(0,x)}else Ul()}else{let A=Ue(sa-ra),T=Ue(ia-aa);if(P.ori==1){let K=A;A=T,T=K}je=Qe.x&&A>=Qe.dist,Ge=Qe.y&&T>=Qe.dist;let L=Qe.uni;L!=null?je&&Ge&&(je=A>=L,Ge=T>=L,!je&&!Ge&&(T>A?Ge=!0:je=!0)):Qe.x&&Qe.y&&(je||Ge)&&(je=Ge=!0);let M,O;je&&(P.ori==0?(M=Gn,O=ye):(M=Yn,O=Ee),mo(Mt(M,O),Ue(O-M)),Ge||$o(0,x)),Ge&&(P.ori==1?(M=Gn,O=ye):(M=Yn,O=Ee),$o(Mt(M,O),Ue(O-M)),je||mo(0,v)),!je&&!Ge&&(mo(0,0),$o(0,0))}if(Qe._x=je,Qe._y=Ge,s==null){if(d){if(ya!=null){let[A,T]=Me.scales;Me.values[0]=A!=null?Vt(P.ori==0?ye:Ee,A):null,Me.values[1]=T!=null?Vt(P.ori==1?ye:Ee,T):null}_o(ur,n,ye,Ee,Q,R,h)}if(On){let A=d&&Me.setSeries,T=Ot.prox;bn==null?qt<=T&&Ft(ln,qn,!0,A):qt>T?Ft(null,qn,!0,A):ln!=bn&&Ft(ln,qn,!0,A)}}vt&&(X.idx=h,Vl()),i!==!1&&Ye("setCursor")}let rn=null;Object.defineProperty(n,"rect",{get(){return rn==null&&go(!1),rn}});function go(s=!1){s?rn=null:(rn=S.getBoundingClientRect(),Ye("syncRect",rn))}function da(s,i,d,h,b,v,x){V._lock||nn&&s!=null&&s.movementX==0&&s.movementY==0||(zl(s,i,d,h,b,v,x,!1,s!=null),s!=null?vn(null,!0,!0):vn(i,!0,!1))}function zl(s,i,d,h,b,v,x,A,T){if(rn==null&&go(!1),gn(s),s!=null)d=s.clientX-rn.left,h=s.clientY-rn.top;else{if(d<0||h<0){ye=-10,Ee=-10;return}let[L,M]=Me.scales,O=i.cursor.sync,[K,ie]=O.values,[re,ee]=O.scales,[G,z]=Me.match,Se=i.axes[0].side%2==1,De=P.ori==0?Q:R,Ke=P.ori==1?Q:R,me=Se?v:b,Le=Se?b:v,ft=Se?h:d,tt=Se?d:h;if(re!=null?d=G(L,re)?c(K,C[L],De,0):-10:d=De*(ft/me),ee!=null?h=z(M,ee)?c(ie,C[M],Ke,0):-10:h=Ke*(tt/Le),P.ori==1){let wt=d;d=h,h=wt}}T&&(i==null||i.cursor.event.type==ur)&&((d<=1||d>=Q-1)&&(d=kn(d,Q)),(h<=1||h>=R-1)&&(h=kn(h,R))),A?(ra=d,aa=h,[Gn,Yn]=V.move(n,d,h)):(ye=d,Ee=h)}let Hl={width:0,height:0,left:0,top:0};function Ul(){Bo(Hl,!1)}let fa,pa,ha,ma;function $a(s,i,d,h,b,v,x){nn=!0,je=Ge=Qe._x=Qe._y=!1,zl(s,i,d,h,b,v,x,!0,!1),s!=null&&(et(dr,$r,ga,!1),_o(cs,n,Gn,Yn,Q,R,null));let{left:A,top:T,width:L,height:M}=we;fa=A,pa=T,ha=L,ma=M}function ga(s,i,d,h,b,v,x){nn=Qe._x=Qe._y=!1,zl(s,i,d,h,b,v,x,!1,!0);let{left:A,top:T,width:L,height:M}=we,O=L>0||M>0,K=fa!=A||pa!=T||ha!=L||ma!=M;if(O&&K&&Bo(we),Qe.setScale&&O&&K){let ie=A,re=L,ee=T,G=M;if(P.ori==1&&(ie=T,re=M,ee=A,G=L),je&&on(N,Vt(ie,N),Vt(ie+re,N)),Ge)for(let z in C){let Se=C[z];z!=N&&Se.from==null&&Se.min!=ge&&on(z,Vt(ee+G,z),Vt(ee,z))}Ul()}else V.lock&&(V._lock=!V._lock,vn(i,!0,s!=null));s!=null&&(Mn(dr,$r),_o(dr,n,ye,Ee,Q,R,null))}function xc(s,i,d,h,b,v,x){if(V._lock)return;gn(s);let A=nn;if(nn){let T=!0,L=!0,M=10,O,K;P.ori==0?(O=je,K=Ge):(O=Ge,K=je),O&&K&&(T=ye<=M||ye>=Q-M,L=Ee<=M||Ee>=R-M),O&&T&&(ye=ye<Gn?0:Q),K&&L&&(Ee=Ee<Yn?0:R),vn(null,!0,!0),nn=!1}ye=-10,Ee=-10,he.fill(null),vn(null,!0,!0),A&&(nn=A)}function _a(s,i,d,h,b,v,x){V._lock||(gn(s),xl(),Ul(),s!=null&&_o(fs,n,ye,Ee,Q,R,null))}function ba(){E.forEach(zd),Sl(n.width,n.height,!0)}An(al,eo,ba);let Jn={};Jn.mousedown=$a,Jn.mousemove=da,Jn.mouseup=ga,Jn.dblclick=_a,Jn.setSeries=(s,i,d,h)=>{let b=Me.match[2];d=b(n,i,d),d!=-1&&Ft(d,h,!0,!1)},Xe&&(et(cs,S,$a),et(ur,S,da),et(us,S,s=>{gn(s),go(!1)}),et(ds,S,xc),et(fs,S,_a),xr.add(n),n.syncRect=go);let jo=n.hooks=e.hooks||{};function Ye(s,i,d){Rl?ho.push([s,i,d]):s in jo&&jo[s].forEach(h=>{h.call(null,n,i,d)})}(e.plugins||[]).forEach(s=>{for(let i in s.hooks)jo[i]=(jo[i]||[]).concat(s.hooks[i])});let va=(s,i,d)=>d,Me=Oe({key:null,setSeries:!1,filters:{pub:Ss,sub:Ss},scales:[N,w[1]?w[1].scale:null],match:[xs,xs,va],values:[null,null]},V.sync);Me.match.length==2&&Me.match.push(va),V.sync=Me;let ya=Me.key,Wl=vi(ya);function _o(s,i,d,h,b,v,x){Me.filters.pub(s,i,d,h,b,v,x)&&Wl.pub(s,i,d,h,b,v,x)}Wl.sub(n);function kc(s,i,d,h,b,v,x){Me.filters.sub(s,i,d,h,b,v,x)&&Jn[s](null,i,d,h,b,v,x)}n.pub=kc;function Cc(){Wl.unsub(n),xr.delete(n),fn.clear(),br(al,eo,ba),m.remove(),ue?.remove(),Ye("destroy")}n.destroy=Cc;function Bl(){Ye("init",e,t),Qr(t||e.data,!1),U[N]?Nl(N,U[N]):xl(),Fo=we.show&&(we.width>0||we.height>0),$n=vt=!0,Sl(e.width,e.height)}return w.forEach(qr),E.forEach(lc),o?o instanceof HTMLElement?(o.appendChild(m),Bl()):o(n,Bl):Bl(),n}qe.assign=Oe;qe.fmtNum=Dr;qe.rangeNum=sl;qe.rangeLog=ul;qe.rangeAsinh=Tr;qe.orient=Pn;qe.pxRatio=ce;qe.join=Du;qe.fmtDate=Ir,qe.tzDate=Uu;qe.sync=vi;{qe.addGap=xd,qe.clipGaps=pl;let e=qe.paths={points:Ci};e.linear=Ai,e.stepped=Ed,e.bars=Ad,e.spline=Pd}var io=["#1f6feb","#d97706","#b91c1c","#15803d"];function Li(e,t,o){let n=Wt(null);return Ut(()=>{let l=n.current;if(!l)return;let r=()=>Math.max(280,l.clientWidth),a=new qe({...e(),width:r(),height:240},t,l),c=new ResizeObserver(()=>a.setSize({width:r(),height:240}));return c.observe(l),()=>{c.disconnect(),a.destroy()}},o),n}function Ii({title:e,labels:t,series:o}){let n=t.map((c,u)=>u),l=[n,...o.map(c=>c.values)],r=o.length,a=Li(()=>({title:e,scales:{x:{time:!1,range:[-.5,t.length-.5]},y:{range:(c,u,m)=>[0,Math.max(1,m*1.1)]}},axes:[{splits:()=>n,values:(c,u)=>u.map(m=>t[m]??""),grid:{show:!1}},{}],series:[{},...o.map((c,u)=>({label:c.label,stroke:io[u%io.length],fill:`${io[u%io.length]}cc`,paths:qe.paths.bars({size:[.8/r,60],align:r===2?u===0?-1:1:0}),points:{show:!1}}))]}),l,[JSON.stringify(l),e]);return p`<figure class="chart">
    <div ref=${a} role="img" aria-label=${e}></div>
    <figcaption>
      <table>
        <caption class="visually-hidden">${e}</caption>
        <thead><tr><th scope="col">provider</th>${o.map(c=>p`<th scope="col">${c.label}</th>`)}</tr></thead>
        <tbody>${t.map((c,u)=>p`<tr><th scope="row">${c}</th>${o.map(m=>p`<td>${m.values[u]}</td>`)}</tr>`)}</tbody>
      </table>
    </figcaption>
  </figure>`}function Mo({title:e,points:t,series:o,unit:n="",max:l,span:r}){let a=t.map(f=>Date.parse(f.at)/1e3),c=(f,g)=>f[g.key]===void 0?0:f[g.key],u=[a,...o.map(f=>t.map(g=>c(g,f)))],m=f=>f===null?"—":`${f}${n}`,$=Li(()=>({title:e,scales:{...r?{x:{time:!0,range:r.map(f=>Date.parse(f)/1e3)}}:{},y:{range:(f,g,_)=>[0,l??Math.max(1,_*1.1)]}},...n?{axes:[{},{values:(f,g)=>g.map(_=>`${_}${n}`)}]}:{},series:[{},...o.map((f,g)=>({label:f.label,stroke:io[g%io.length],width:2,...u[g+1].includes(null)?{points:{show:!0,size:6}}:{}}))]}),u,[JSON.stringify(u),e,n,l,JSON.stringify(r)]);return p`<figure class="chart">
    <div ref=${$} role="img" aria-label=${e}></div>
    <figcaption>
      <details>
        <summary>The numbers</summary>
        <table>
          <caption class="visually-hidden">${e}</caption>
          <thead><tr><th scope="col">from</th>${o.map(f=>p`<th scope="col">${f.label}</th>`)}</tr></thead>
          <tbody>${t.map(f=>p`<tr><th scope="row">${new Date(f.at).toLocaleString()}</th>${o.map(g=>p`<td>${m(c(f,g))}</td>`)}</tr>`)}</tbody>
        </table>
      </details>
    </figcaption>
  </figure>`}function Mi({me:e}){let t=de(async()=>{let[o,...n]=await Promise.all([jt("/stores",{},l=>l.code),...Ae.map(l=>oe(`/components/${l}`))]);return{stores:o,versions:Object.fromEntries(Ae.map((l,r)=>[l,n[r]]))}},[]);return p`<h1>Replay</h1>
    <p>Re-runs a store's recorded charges with the versions you choose and shows what would change. Nothing is stored or sent.</p>
    ${Pe(e,"tester")?p`<${pe} state=${t} what="stores and versions">${o=>p`<${Hd} ...${o} />`}<//>`:p`<p role="note">Your role (${e.role}) may not run replays: a tester may.</p>`}`}function Hd({stores:e,versions:t}){let[o,n]=F(e.find(y=>y.mode==="SHADOW")?.code??e[0]?.code??""),[l,r]=F({policy:"",provider:"",economics:""}),[a,c]=F(""),[u,m]=F(""),[$,f]=F(""),[g,_]=F(null),S=Ne();async function k(y){y.preventDefault();let D=Object.fromEntries(Object.entries(l).filter(([,E])=>E)),w={store:o,components:D};a&&(w.since=new Date(a).toISOString()),u&&(w.until=new Date(u).toISOString()),$&&(w.limit=Number($)),_(null),await S.run(()=>Za(w,_))}return p`<form class="stack" onSubmit=${k} aria-label="Replay settings">
      <label>Store
        <select value=${o} onChange=${y=>n(y.target.value)}>
          ${e.map(y=>p`<option value=${y.code}>${y.code} (${y.mode})</option>`)}
        </select>
      </label>
      <fieldset>
        <legend>Versions to try</legend>
        ${Ae.map(y=>p`<label>${y}
          <select value=${l[y]} onChange=${D=>r({...l,[y]:D.target.value})}>
            <option value="">as recorded</option>
            <option value="bundled">bundled</option>
            ${t[y].map(D=>p`<option value=${D.version}>${D.version.slice(0,12)} ${D.label?`${D.label} `:""}(${D.source})</option>`)}
          </select>
        </label>`)}
      </fieldset>
      <div class="row">
        <label>Since <input type="datetime-local" value=${a} onInput=${y=>c(y.target.value)} /></label>
        <label>Until <input type="datetime-local" value=${u} onInput=${y=>m(y.target.value)} /></label>
        <label>At most this many charges <input type="number" min="1" max="100000" value=${$} onInput=${y=>f(y.target.value)} placeholder="10000" /></label>
      </div>
      <button type="submit" class="primary" disabled=${S.busy||!o}>Run the replay</button>
    </form>
    <${$e} error=${S.error} />
    ${S.busy?p`<p role="status">${g?p`Replaying ${g.replayed} of ${g.total} charges <progress value=${g.replayed} max=${Math.max(g.total,1)}></progress>`:"Replaying…"}</p>`:null}
    ${S.result?p`<${Ud} report=${S.result} />`:null}`}function Ud({report:e}){return p`<section aria-labelledby="replay-report" class="report">
    <h2 id="replay-report">Replay of ${e.store}</h2>
    <dl class="facts">
      <dt>Replayed</dt><dd>${e.replayed} charges</dd>
      <dt>Changed</dt><dd>${e.changed}</dd>
      <dt>Unchanged</dt><dd>${e.unchanged}</dd>
      <dt>Candidate errors</dt><dd>${e.errors}</dd>
      <dt>Unreadable</dt><dd>${e.unreadable}</dd>
      <${zr} fee=${e.feeDeltaCentavos} net=${e.netDeltaCentavos} />
      <dt>Took</dt><dd>${e.durationMs} ms</dd>
    </dl>
    <${Hr} before=${e.providersBefore} after=${e.providersAfter} empty="No charges in this window." />
    <${Ro} title="Changes by kind" counts=${e.changesByKind} />
    <${Ro} title="Candidate errors by kind" counts=${e.errorsByKind} />
    <h3>Changed charges</h3>
    ${e.firstChanged.length===0?p`<p class="muted">No charge changed.</p>`:p`<div class="scroll"><table>
          <caption>The first ${e.firstChanged.length} changed charges, oldest first</caption>
          <thead><tr><th scope="col">Payment</th><th scope="col">Created</th><th scope="col">What changed</th><th scope="col">Before</th><th scope="col">After</th></tr></thead>
          <tbody>${e.firstChanged.map(t=>p`<tr>
            <th scope="row"><a href=${`#/payments/${t.paymentIntentId}`}><code title=${t.paymentIntentId}>…${t.paymentIntentId.slice(-12)}</code></a></th>
            <td>${ae(t.createdAt)}</td>
            <td>${t.kinds.join(", ")}</td>
            <td>${Dn(t.before)}</td><td>${Dn(t.after)}</td>
          </tr>`)}</tbody>
        </table></div>`}
    <${Dt} value=${e} summary="The report as JSON" />
  </section>`}function zr({fee:e,net:t}){return p`<dt>Fee delta</dt><dd>${ir(e)}</dd>
    <dt>Net delta</dt><dd>${ir(t)}</dd>`}function Hr({before:e,after:t,empty:o,title:n="Charges per provider, before and after",names:l=["before","after"]}){let r=[...new Set([...Object.keys(e??{}),...Object.keys(t??{})])].sort();return r.length?p`<${Ii} title=${n}
    labels=${r}
    series=${[{label:l[0],values:r.map(a=>e?.[a]??0)},{label:l[1],values:r.map(a=>t?.[a]??0)}]} />`:p`<p class="muted">${o}</p>`}function Ro({title:e,counts:t}){let o=Object.entries(t??{}).filter(([,n])=>n>0);return o.length?p`<h3>${e}</h3><ul>${o.map(([n,l])=>p`<li><code>${n}</code>: ${l}</li>`)}</ul>`:null}function Dn(e){return e?e.status==="resolved"?p`${e.gatewayAlias} (${e.releaseClass}) · fee ${lt(e.feeCentavos)}`:p`${e.status} at ${e.step}: <code>${e.code}</code>`:"—"}function Ri({store:e,step:t}){let o=de(()=>jt("/stores",{},n=>n.code),[]);return p`<h1>Shadow comparison</h1>
    <p>A shadow candidate runs beside the active version on every new charge, off the request path; here is how often it decides differently.</p>
    <${pe} state=${o} what="the stores">${n=>p`<${Wd} key=${`${e}/${t}`} stores=${n} initialStore=${e} initialStep=${t} />`}<//>`}function Wd({stores:e,initialStore:t,initialStep:o}){let n=e.find(u=>u.code===t)??e.find(u=>u.mode==="SHADOW")??e[0],[l,r]=F(n?.code??""),[a,c]=F(Ae.includes(o)?o:"provider");return p`<form class="row" aria-label="Which comparison" onSubmit=${u=>u.preventDefault()}>
      <label>Store
        <select value=${l} onChange=${u=>r(u.target.value)}>
          ${e.map(u=>p`<option value=${u.code}>${u.code}</option>`)}
        </select>
      </label>
      <label>Step
        <select value=${a} onChange=${u=>c(u.target.value)}>
          ${Ae.map(u=>p`<option value=${u}>${u}</option>`)}
        </select>
      </label>
    </form>
    ${l?p`<${Bd} key=${`${l}/${a}`} store=${l} step=${a} />`:null}`}function Bd({store:e,step:t}){let o=de(()=>oe(`/stores/${encodeURIComponent(e)}/components/${t}/shadow`),[e,t]);return p`<${pe} state=${o} what="the comparison">${n=>p`
    <section aria-labelledby="shadow-title" class="report">
      <h2 id="shadow-title">${n.store} · ${n.step}</h2>
      <div class="row"><button type="button" onClick=${o.reload}>Refresh</button></div>
      ${o.error?p`<${$e} error=${o.error} />`:null}
      <dl class="facts">
        <dt>Active</dt><dd><${Ie} value=${n.active} /></dd>
        <dt>Candidate</dt><dd>${n.candidate?p`<${Ie} value=${n.candidate} />`:p`none attached: set one on the <a href=${`#/stores/${encodeURIComponent(n.store)}`}>store</a>`}</dd>
        <dt>Since</dt><dd>${ae(n.since)}</dd>
        <dt>Compared</dt><dd>${n.charges} charges</dd>
        <dt>Changed</dt><dd>${n.changed} (${Qn(jd(n))} of the charges)</dd>
        <dt>Unchanged</dt><dd>${n.unchanged}</dd>
        <dt>Candidate errors</dt><dd>${n.errors}</dd>
        <${zr} fee=${n.feeDeltaCentavos} net=${n.netDeltaCentavos} />
      </dl>
      <p class="muted">The deltas are the candidate's minus the active version's, summed over the compared charges both resolved.</p>
      <${Hr} before=${n.providersBefore} after=${n.providersAfter}
        title="Charges per provider, active and candidate" names=${["active","candidate"]}
        empty="No compared charge to chart per provider yet." />
      ${Array.isArray(n.series)&&n.series.length?p`<${Mo} title="Compared charges over time" points=${n.series} span=${Gd(n)}
            series=${[{key:"charges",label:"charges"},{key:"changed",label:"changed"},{key:"errors",label:"errors"}]} />`:p`<p class="muted">No comparisons over time yet.</p>`}
      <${Ro} title="Changes by kind" counts=${n.changesByKind} />
      <${Ro} title="Candidate errors by kind" counts=${n.errorsByKind} />
      <h3>Latest differences</h3>
      ${n.recent.length===0?p`<p class="muted">No difference recorded.</p>`:p`<div class="scroll"><table>
            <thead><tr><th scope="col">Payment</th><th scope="col">When</th><th scope="col">What changed</th><th scope="col">Active</th><th scope="col">Candidate</th></tr></thead>
            <tbody>${n.recent.map(l=>p`<tr>
              <th scope="row"><a href=${`#/payments/${l.paymentIntentId}`}><code title=${l.paymentIntentId}>…${l.paymentIntentId.slice(-12)}</code></a></th>
              <td>${ae(l.at)}</td><td>${l.kinds.join(", ")}</td><td>${Dn(l.before)}</td><td>${Dn(l.after)}</td>
            </tr>`)}</tbody>
          </table></div>`}
    </section>`}<//>`}function jd(e){return typeof e.changedShare=="number"?e.changedShare:e.charges?e.changed/e.charges:0}function Gd(e){if(!e.bucketSeconds)return;let t=e.series[0].at,o=Date.parse(e.series[e.series.length-1].at)+e.bucketSeconds*1e3;return[t,new Date(o).toISOString()]}function Ni(){let e=de(async()=>{let[t,o]=await Promise.all([oe("/providers"),oe("/gateways")]);return{providers:t,gateways:o}},[]);return p`<h1>Providers</h1>
    <${pe} state=${e} what="the providers">${({providers:t,gateways:o})=>p`
      ${t.length===0?p`<p class="muted">No provider is configured.</p>`:null}
      <div class="cards">${t.map(n=>p`<article class="card" aria-labelledby=${`provider-${n.code}`}>
        <h2 id=${`provider-${n.code}`}>${n.name} <code>${n.code}</code></h2>
        <dl class="facts">
          <dt>Status</dt><dd><span class=${`badge ${n.active?"ok":"off"}`}>${n.active?"active":"inactive"}</span></dd>
          <dt>Health</dt><dd>${gl(n.health)}</dd>
          <dt>API</dt><dd><code>${n.apiBaseUrl}</code></dd>
          <dt>Client id</dt><dd><code>${n.clientId}</code></dd>
          <dt>Client certificate</dt><dd>${n.tls?.clientCertificate?`${n.tls.clientCertificate.subject}, until ${ae(n.tls.clientCertificate.notAfter)}`:"none"}</dd>
          <dt>Private CAs</dt><dd>${n.tls?.caCertificates?.length??0}</dd>
        </dl>
      </article>`)}</div>
      <h2>Gateways</h2>
      <div class="scroll"><table>
        <thead><tr><th scope="col">Gateway</th><th scope="col">Provider</th><th scope="col">Release class</th><th scope="col">Fee terms</th><th scope="col">Status</th><th scope="col">Health</th></tr></thead>
        <tbody>${o.map(n=>p`<tr>
          <th scope="row"><code>${n.gatewayAlias}</code></th><td>${n.providerCode}</td><td>${n.releaseClass}</td>
          <td>${Yd(n.feeTerms)}</td>
          <td><span class=${`badge ${n.active?"ok":"off"}`}>${n.active?"active":"inactive"}</span></td>
          <td>${gl(n.health)}</td>
        </tr>`)}</tbody>
      </table></div>`}<//>`}function Yd(e){if(!e)return"—";let t=e.maxFeeCentavos===null||e.maxFeeCentavos===void 0?"no cap":`cap ${lt(e.maxFeeCentavos)}`;return`${(e.mdrBps/100).toFixed(2)} % + ${lt(e.fixedCentavos)}, min ${lt(e.minFeeCentavos)}, ${t}`}function gl(e){if(!e)return p`<span class="muted">not reported</span>`;let t=e.successRateBps!==void 0?`${(e.successRateBps/100).toFixed(1)} % ok`:null,o=e.latencyP50Ms!==void 0?`p50 ${e.latencyP50Ms} ms`:null;return p`<span class=${`badge ${e.available?"ok":"off"}`}>${e.available?"available":"unavailable"}</span>
    ${[t,o,e.samples!==void 0?`${e.samples} calls`:null].filter(Boolean).join(" · ")}`}var Kd=["SHADOW_ONLY","PENDING","SUCCEEDED","FAILED","CANCELED"],Ur={reference:"",store:"",merchant:"",status:"",createdFrom:"",createdTo:""};function Oi(){let[e,t]=F(Ur),[o,n]=F(Ur),[l,r]=F([]),a=de(async()=>{let $={...o,limit:20};for(let g of["createdFrom","createdTo"])$[g]&&($[g]=new Date($[g]).toISOString());let f=await oe("/payment-intents",$);return r([]),f},[JSON.stringify(o)]),c=Ne(),u=$=>f=>t({...e,[$]:f.target.value}),m=[...a.data??[],...l];return p`<h1>Payments</h1>
    <${Wr} />
    <form class="filters" role="search" aria-label="Search payments" onSubmit=${$=>{$.preventDefault(),Ur=e,n({...e})}}>
      <label>Reference <input value=${e.reference} onInput=${u("reference")} /></label>
      <label>Store <input value=${e.store} onInput=${u("store")} /></label>
      <label>Merchant <input value=${e.merchant} onInput=${u("merchant")} /></label>
      <label>Status
        <select value=${e.status} onChange=${u("status")}>
          <option value="">any</option>
          ${Kd.map($=>p`<option value=${$}>${$}</option>`)}
        </select>
      </label>
      <label>Created from <input type="datetime-local" value=${e.createdFrom} onInput=${u("createdFrom")} /></label>
      <label>Created before <input type="datetime-local" value=${e.createdTo} onInput=${u("createdTo")} /></label>
      <button type="submit" class="primary">Search</button>
    </form>
    <${$e} error=${c.error} />
    <${pe} state=${a} what="payments">${()=>p`
      ${m.length===0?p`<p role="status">No payment matches.</p>`:p`<${_l} intents=${m} caption=${`${m.length} payments, newest first`} />`}
      ${m.length&&m.length%20===0?p`<button type="button" disabled=${c.busy} onClick=${async()=>{let $={...o,limit:20,after:m[m.length-1].paymentIntentId};for(let g of["createdFrom","createdTo"])$[g]&&($[g]=new Date($[g]).toISOString());let f=await c.run(()=>oe("/payment-intents",$));f&&r([...l,...f])}}>More payments</button>`:null}`}<//>`}function _l({intents:e,caption:t,extra:o}){return p`<div class="scroll"><table>
    <caption>${t}</caption>
    <thead><tr><th scope="col">Reference</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col">Store</th><th scope="col">Provider</th><th scope="col">Created</th>
      ${o?p`<th scope="col">${o.label}</th>`:null}</tr></thead>
    <tbody>${e.map(n=>p`<tr>
      <th scope="row"><a href=${`#/payments/${n.paymentIntentId}`}>${n.reference||n.paymentIntentId}</a></th>
      <td>${xn(n.amount)}</td><td><span class=${`badge ${n.status}`}>${n.status}</span></td>
      <td>${n.store?.code}</td><td>${n.routing?.providerCode??n.provider?.code??"—"}</td><td>${ae(n.createdAt)}</td>
      ${o?p`<td>${o.cell(n)}</td>`:null}
    </tr>`)}</tbody>
  </table></div>`}var qd={paymentIntentId:"payment id",txid:"txid",endToEndId:"endToEndId"};function Wr(){let[e,t]=F(""),[o,n]=F(""),l=Ne();async function r(c){c.preventDefault();let u=e.trim();if(!u)return;n(u);let m=await l.run(()=>oe("/lookup",{q:u}));m?.length===1&&(location.hash=`#/payments/${encodeURIComponent(m[0].paymentIntentId)}`)}let a=l.result;return p`<form class="row" role="search" aria-label="Find a payment" onSubmit=${r}>
      <label>Payment id, txid or endToEndId
        <input type="search" value=${e} onInput=${c=>t(c.target.value)} maxLength="64" size="40"
          autocomplete="off" spellcheck="false" aria-describedby="lookup-help" />
      </label>
      <button type="submit" disabled=${l.busy}>Find</button>
      <span id="lookup-help" class="muted">One match opens the payment.</span>
    </form>
    <${$e} error=${l.error} />
    ${a?.length===0?p`<p role="status">Nothing matches <code>${o}</code>: no payment has it as its id, txid or endToEndId.</p>`:null}
    ${a?.length>1?p`<${_l} intents=${a} caption=${`${a.length} payments match ${o}`}
      extra=${{label:"Matched by",cell:c=>qd[c.matchedBy]??c.matchedBy}} />`:null}`}function Fi({id:e,me:t}){let o=de(()=>oe(`/payment-intents/${e}`),[e]),n=de(()=>oe(`/payment-intents/${e}/trace`),[e]),l=o.data?.reference;return p`<h1>Payment ${l?p`<q>${l}</q>`:p`<code>${e}</code>`}</h1>
    <p><a href="#/payments">Back to the search</a></p>
    <${pe} state=${o} what="the payment">${r=>p`<${Qd} intent=${r} />`}<//>
    <section aria-labelledby="trace-title">
      <h2 id="trace-title">Decision trace</h2>
      <${pe} state=${n} what="the trace">${r=>p`<${Zd} trace=${r} />`}<//>
    </section>
    <${Jd} id=${e} />
    <${Xd} id=${e} me=${t} />`}function Jd({id:e}){let t=de(()=>oe(`/payment-intents/${e}/refunds`),[e]);return p`<section aria-labelledby="refunds-title">
    <h2 id="refunds-title">Refunds</h2>
    <${pe} state=${t} what="the refunds">${o=>o.length===0?p`<p class="muted">No refund of this payment.</p>`:p`<div class="scroll"><table>
          <caption>The refunds of this payment, oldest first</caption>
          <thead><tr><th scope="col">Refund</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col">Reason</th><th scope="col">Created</th></tr></thead>
          <tbody>${o.map(n=>p`<tr>
            <th scope="row"><code>${n.refundId}</code></th><td>${xn(n.amount)}</td>
            <td><span class=${`badge ${n.status}`}>${n.status}</span></td><td>${n.reason??""}</td><td>${ae(n.createdAt)}</td>
          </tr>`)}</tbody>
        </table></div>`}<//>
  </section>`}function Qd({intent:e}){return p`<section aria-labelledby="intent-title">
    <h2 id="intent-title">The intent</h2>
    <dl class="facts">
      <dt>Id</dt><dd><code>${e.paymentIntentId}</code></dd>
      <dt>Status</dt><dd><span class=${`badge ${e.status}`}>${e.status}</span></dd>
      <dt>Amount</dt><dd>${xn(e.amount)}${e.amountRefunded?` (refunded ${xn(e.amountRefunded)})`:""}</dd>
      <dt>Store</dt><dd>${e.store?.code} · ${e.merchant}</dd>
      <dt>Route</dt><dd>${e.routing?`${e.routing.policy??""} → ${e.routing.gatewayAlias??"—"} (${e.routing.releaseClass??""})`:"—"}</dd>
      <dt>Fee / net</dt><dd>${e.economics?`${xn(e.economics.feeAmount)} / ${xn(e.economics.netAmount)}, settles ${e.economics.settlementDate}`:"—"}</dd>
      <dt>At the PSP</dt><dd>${e.provider?p`${e.provider.code} <code>${e.provider.paymentId??"not paid yet"}</code>`:"—"}</dd>
      ${e.pix?.txid?p`<dt>txid</dt><dd><code>${e.pix.txid}</code></dd>`:null}
      ${e.failure?p`<dt>Failure</dt><dd><code>${e.failure.code}</code> ${e.failure.message}</dd>`:null}
      <dt>Created</dt><dd>${ae(e.createdAt)}</dd>
      ${e.completedAt?p`<dt>Completed</dt><dd>${ae(e.completedAt)}</dd>`:null}
    </dl>
  </section>`}function Br({trace:e}){let t=Ae.map(l=>e[l]).filter(Boolean),o=Array.isArray(e.routes)?e.routes:[],n=e.stopped;return p`
    <ol class="trace">${t.map(l=>p`<li>
      <h3>${l.step}</h3>
      <p>
        Version <${Ie} value=${l.component} /> · fuel ${l.fuelUsed} · ${l.durationUs} µs
        ${l.error?p` · <strong>error</strong> <code>${l.error.code??JSON.stringify(l.error)}</code>`:""}
      </p>
      ${l.log?p`<pre class="log" tabindex="0">${l.log}</pre>`:null}
      <${Dt} value=${l.output} summary=${`${l.step} output`} />
      <${Dt} value=${l.input} summary=${`${l.step} input`} />
    </li>`)}</ol>
    ${n?p`<p role="note">Stopped at the <strong>${n.step}</strong> step (version <${Ie} value=${n.component} />):
      <code>${n.code}</code> ${n.message}</p>
      ${n.input!==void 0?p`<${Dt} value=${n.input} summary=${`${n.step} input`} />`:null}`:null}
    ${o.length?p`<h3>Routes, in order</h3><div class="scroll"><table>
      <caption>The gateways the chain ranked for this charge</caption>
      <thead><tr><th scope="col">#</th><th scope="col">Gateway</th><th scope="col">Provider</th><th scope="col">Release class</th><th scope="col">Fee</th><th scope="col">Net</th><th scope="col">Why</th></tr></thead>
      <tbody>${o.map((l,r)=>p`<tr>
        <td>${r+1}</td><th scope="row"><code>${l.gateway?.gatewayAlias}</code></th><td>${l.gateway?.providerCode}</td>
        <td>${l.gateway?.releaseClass}</td><td>${lt(l.quote?.feeCentavos)}</td><td>${lt(l.quote?.netCentavos)}</td><td>${l.gateway?.reason??""}</td>
      </tr>`)}</tbody>
    </table></div>`:null}`}function Zd({trace:e}){let t=Array.isArray(e.pspCalls)?e.pspCalls:[];return p`<${Br} trace=${e} />
    <h3>PSP calls</h3>
    ${t.length===0?p`<p class="muted">No PSP was called for this payment.</p>`:p`<div class="scroll"><table>
          <caption>The calls made to PSPs for this payment, in order</caption>
          <thead><tr><th scope="col">When</th><th scope="col">Provider</th><th scope="col">Gateway</th><th scope="col">Call</th><th scope="col">Outcome</th><th scope="col">Took</th><th scope="col">Error</th></tr></thead>
          <tbody>${t.map(o=>p`<tr>
            <td>${ae(new Date(o.at).toISOString())}</td><td>${o.providerCode}</td><td>${o.gatewayAlias??"—"}</td>
            <td><code>${o.operation}</code></td><td>${o.outcome}</td><td>${o.durationMs} ms</td><td>${o.error??""}</td>
          </tr>`)}</tbody>
        </table></div>`}
    <${Dt} value=${e} summary="The whole trace as JSON" />`}function Xd({id:e,me:t}){let o=de(()=>oe(`/payment-intents/${e}/deliveries`),[e]),n=Ne();return p`<section aria-labelledby="deliveries-title">
    <h2 id="deliveries-title">Webhook deliveries</h2>
    <${$e} error=${n.error} />
    ${n.result?p`<p role="status">The delivery is being sent again.</p>`:null}
    ${p`<${pe} state=${o} what="the deliveries">${l=>l.length?p`<ul class="cards">${l.map(r=>p`<li class="card">
            <h3>${r.event} <span class=${`badge ${r.status}`}>${r.status}</span></h3>
            <p>Delivery <code>${r.deliveryId}</code> to endpoint <code>${r.endpointId}</code></p>
            ${r.nextAttemptAt?p`<p>Next attempt ${ae(r.nextAttemptAt)}</p>`:null}
            <div class="scroll"><table>
              <caption>Attempts</caption>
              <thead><tr><th scope="col">#</th><th scope="col">When</th><th scope="col">HTTP</th><th scope="col">Took</th><th scope="col">Error</th></tr></thead>
              <tbody>${r.attempts.map(a=>p`<tr>
                <td>${a.attempt}</td><td>${ae(a.attemptedAt)}</td><td>${a.httpStatus??"—"}</td>
                <td>${a.durationMs} ms</td><td>${a.error??""}</td>
              </tr>`)}</tbody>
            </table></div>
            ${Pe(t,"operator")?p`<button type="button" disabled=${n.busy}
              onClick=${()=>n.run(()=>Bt(`/webhook-deliveries/${r.deliveryId}/resend`)).then(a=>a!==void 0&&o.reload())}>
              Resend ${r.event}</button>`:null}
          </li>`)}</ul>`:p`<p class="muted">No webhook delivery for this payment.</p>`}<//>`}
  </section>`}function Vi({me:e}){let t=de(()=>jt("/operators",{},r=>r.id),[]),o=Ne(),[n,l]=F(null);return p`<h1>Operators</h1>
    ${Pe(e,"admin")?p`<${ef} onCreated=${t.reload} />`:null}
    <${$e} error=${o.error} />
    <${pe} state=${t} what="the operators">${r=>p`<div class="scroll"><table>
      <caption>${r.length} operators</caption>
      <thead><tr><th scope="col">Name</th><th scope="col">Id</th><th scope="col">Role</th><th scope="col">Created</th><th scope="col">Status</th>
        ${Pe(e,"admin")?p`<th scope="col"><span class="visually-hidden">Actions</span></th>`:null}</tr></thead>
      <tbody>${r.map(a=>{let c=!!a.revokedAt||a.status==="REVOKED"||a.revoked===!0;return p`<tr>
          <th scope="row">${a.name}</th><td><code>${a.id}</code></td><td>${a.role}</td><td>${ae(a.createdAt)}</td>
          <td>${c?p`<span class="badge off">revoked ${ae(a.revokedAt)}</span>`:p`<span class="badge ok">active</span>`}</td>
          ${Pe(e,"admin")?p`<td>${c||a.id===e.id?null:p`<button type="button" onClick=${()=>l(a)}>Revoke ${a.name}</button>`}</td>`:null}
        </tr>`})}</tbody>
    </table></div>`}<//>
    <${cn} open=${!!n} title=${`Revoke ${n?.name??""}?`} confirmLabel="Revoke"
      onCancel=${()=>l(null)}
      onConfirm=${async()=>{let r=n;l(null),await o.run(()=>Bt(`/operators/${encodeURIComponent(r.id)}/revoke`))!==void 0&&t.reload()}}>Their token stops working at once.<//>`}function ef({onCreated:e}){let[t,o]=F(""),[n,l]=F("viewer"),r=Ne();return p`<section aria-labelledby="new-operator">
    <h2 id="new-operator">Add an operator</h2>
    <form class="row" onSubmit=${async a=>{a.preventDefault(),await r.run(()=>Bt("/operators",{name:t.trim(),role:n}))!==void 0&&(o(""),e())}}>
      <label>Name <input value=${t} onInput=${a=>o(a.target.value)} required maxlength="120" /></label>
      <label>Role
        <select value=${n} onChange=${a=>l(a.target.value)}>
          ${tl.map(a=>p`<option value=${a}>${a}</option>`)}
        </select>
      </label>
      <button type="submit" class="primary" disabled=${r.busy}>Add the operator</button>
    </form>
    <${$e} error=${r.error} />
    ${r.result?.token?p`<div class="notice" role="status">
      <p>The token of <strong>${r.result.name}</strong> (${r.result.role}), shown this once: hand it over now.</p>
      <p><label>Token <input readonly value=${r.result.token} onFocus=${a=>a.target.select()} /></label></p>
    </div>`:null}
  </section>`}function zi(){let[e,t]=F({operator:"",action:"",target:"",since:"",until:""}),[o,n]=F(e),[l,r]=F([]),a=Ne(),c=(f,g)=>{let _={...f,limit:50,after:g};for(let S of["since","until"])_[S]&&(_[S]=new Date(_[S]).toISOString());return _},u=de(async()=>(r([]),oe("/audit-events",c(o))),[JSON.stringify(o)]),m=f=>g=>t({...e,[f]:g.target.value}),$=[...u.data??[],...l];return p`<h1>Audit trail</h1>
    <form class="filters" role="search" aria-label="Filter the audit trail" onSubmit=${f=>{f.preventDefault(),n({...e})}}>
      <label>Operator id <input value=${e.operator} onInput=${m("operator")} placeholder="bootstrap or an operator's id" /></label>
      <label>Action <input value=${e.action} onInput=${m("action")} placeholder="resource.verb, e.g. store.update" /></label>
      <label>Target <input value=${e.target} onInput=${m("target")} /></label>
      <label>Since <input type="datetime-local" value=${e.since} onInput=${m("since")} /></label>
      <label>Until <input type="datetime-local" value=${e.until} onInput=${m("until")} /></label>
      <button type="submit" class="primary">Filter</button>
    </form>
    <${$e} error=${a.error} />
    <${pe} state=${u} what="the audit trail">${()=>p`
      ${$.length===0?p`<p role="status">No event matches.</p>`:p`<div class="scroll"><table>
        <caption>${$.length} events, newest first</caption>
        <thead><tr><th scope="col">When</th><th scope="col">Operator</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">Change</th></tr></thead>
        <tbody>${$.map(f=>p`<tr>
          <td>${ae(f.at)}</td><td>${f.operator?.name??""} <code>${f.operator?.id??""}</code></td><td><code>${f.action}</code></td><td><code>${f.target}</code></td>
          <td>${f.before!==void 0||f.after!==void 0?p`<${Dt} value=${{before:f.before,after:f.after}} summary="before and after" />`:""}</td>
        </tr>`)}</tbody>
      </table></div>`}
      ${$.length&&$.length%50===0?p`<button type="button" disabled=${a.busy} onClick=${async()=>{let f=await a.run(()=>oe("/audit-events",c(o,$[$.length-1].eventId)));f&&r([...l,...f])}}>Older events</button>`:null}`}<//>`}var tf=[1,6,24,72,168],jr=24,Ui=3,Gr=100;function Wi(){let[e,t]=F(jr),o=de(()=>oe("/overview",{hours:e}),[e]),n=de(()=>oe("/providers"),[]),l=de(()=>oe("/webhook-deliveries",{state:"failing",limit:Gr}),[]),r=()=>{o.reload(),n.reload(),l.reload()},a=Hi(e);return p`<h1>Is anything on fire?</h1>
    <${nf} overview=${o} providers=${n} failing=${l} span=${a} />
    <form class="row" aria-label="Which window" onSubmit=${c=>c.preventDefault()}>
      <label>Hours
        <select value=${e} onChange=${c=>{jr=Number(c.target.value),t(jr)}}>
          ${tf.map(c=>p`<option value=${c}>${Hi(c)}</option>`)}
        </select>
      </label>
      <button type="button" onClick=${r} disabled=${o.loading}>Refresh</button>
    </form>
    <${Wr} />
    <${pe} state=${o} what="the overview">${c=>p`
      <${of} overview=${c} span=${a} />
      <${af} overview=${c} />`}<//>
    <section aria-labelledby="psp-health">
      <h2 id="psp-health">PSP health</h2>
      <${pe} state=${n} what="the providers">${c=>p`<${sf} providers=${c} />`}<//>
    </section>
    ${o.data?p`
      <${cf} pending=${o.data.pendingLive} />
      <${df} stores=${o.data.flaggedStores} />`:null}`}function Hi(e){return e===1?"the last hour":e%24===0?e===24?"the last 24 hours":`the last ${e/24} days`:`the last ${e} hours`}function Bi(e){return["PENDING","SUCCEEDED","FAILED","CANCELED"].reduce((t,o)=>t+(e?.[o]??0),0)}function bl(e,t){let o=Bi(e);return o?(e?.[t]??0)/o:null}function nf({overview:e,providers:t,failing:o,span:n}){if(e.error||t.error||o.error)return p`<section class="verdict warn" aria-label="Verdict">
      <p><strong>Unknown:</strong> the overview, the providers or the failing webhook deliveries could not be read.</p>
      <${$e} error=${o.error} />
    </section>`;if(!e.data||!t.data||!o.data)return p`<p class="muted" role="status">Checking the PSPs, the charges and the webhook deliveries…</p>`;let l=e.data,r=o.data,a=t.data.filter(f=>f.active&&f.health&&f.health.available===!1),c=(l.pendingLive?.byAge??[]).slice(Ui).reduce((f,g)=>f+g.count,0),u=l.totals?.byStatus?.FAILED??0,m=r.length>=Gr?`${Gr} or more`:`${r.length}`,$=[...a.map(f=>p`<a href="#/providers">PSP ${f.name} (<code>${f.code}</code>) is unavailable</a>`),c?p`${c} LIVE ${c===1?"charge has":"charges have"} been pending for over 2 hours (the oldest are listed below)`:null,u?p`${u} LIVE ${u===1?"charge":"charges"} failed in ${n} (${Qn(bl(l.totals.byStatus,"FAILED"))} of the LIVE charges)`:null,r.length?p`<a href="#/deliveries">${m} webhook ${r.length===1?"delivery is":"deliveries are"} failing</a>`:null].filter(Boolean);return $.length?p`<section class="verdict warn" aria-label="Verdict">
    <p><strong>Maybe: ${$.length===1?"this needs":"these need"} a look.</strong></p>
    <ul>${$.map(f=>p`<li>${f}</li>`)}</ul>
  </section>`:p`<section class="verdict ok" aria-label="Verdict">
      <p><strong>No.</strong> Every PSP that reports its health is available, no LIVE charge has been pending for over 2 hours,
        none failed in ${n} and no webhook delivery is failing.</p>
    </section>`}function Xt({label:e,children:t}){return p`<div class="tile"><dt>${e}</dt><dd>${t}</dd></div>`}function of({overview:e,span:t}){let o=e.totals?.byStatus??{};return p`<section aria-labelledby="totals-title">
    <h2 id="totals-title">Totals, ${t}</h2>
    <p class="muted">Charges created from ${ae(e.from)} to ${ae(e.to)}. The rates are shares of the LIVE charges
      (${Bi(o)}); a SHADOW store's charges stop at the decision.</p>
    <dl class="tiles">
      <${Xt} label="Charges">${e.totals?.charges??0}<//>
      <${Xt} label="Amount">${lt(e.totals?.amountCentavos??0)}<//>
      <${Xt} label="Success rate">${Qn(bl(o,"SUCCEEDED"))}<//>
      <${Xt} label="Failed rate">${Qn(bl(o,"FAILED"))}<//>
      <${Xt} label="Succeeded">${o.SUCCEEDED??0}<//>
      <${Xt} label="Failed">${o.FAILED??0}<//>
      <${Xt} label="Pending">${o.PENDING??0}<//>
      <${Xt} label="Canceled">${o.CANCELED??0}<//>
      <${Xt} label="Shadow only">${o.SHADOW_ONLY??0}<//>
    </dl>
  </section>`}function lf(e){let t=(e.bucketSeconds||3600)*1e3,o=new Map((e.series??[]).map(a=>[Date.parse(a.at),a])),n=Math.floor(Date.parse(e.from)/t)*t,l=Date.parse(e.to),r=new Set(o.keys());if(Number.isFinite(n)&&Number.isFinite(l)&&(l-n)/t<=1e3)for(let a=n;a<l;a+=t)r.add(a);return[...r].sort((a,c)=>a-c).map(a=>{let c=o.get(a),u=c?.byStatus??{},m=$=>{let f=bl(u,$);return f===null?null:Math.round(f*1e3)/10};return{at:new Date(a).toISOString(),charges:c?.charges??0,succeeded:u.SUCCEEDED??0,failed:u.FAILED??0,pending:u.PENDING??0,shadow:u.SHADOW_ONLY??0,successRate:m("SUCCEEDED"),failedRate:m("FAILED")}})}function rf(e){return!e||e===3600?"hour":e%3600===0?`${e/3600} hours`:`${Math.round(e/60)} minutes`}function af({overview:e}){let t=lf(e),o=rf(e.bucketSeconds);return p`<section aria-labelledby="volume-title">
    <h2 id="volume-title">Volume and outcomes</h2>
    ${(e.series??[]).length===0?p`<p class="muted">No charge in this window.</p>`:p`<div class="charts">
          <${Mo} title=${`Charges per ${o}`} points=${t} span=${[e.from,e.to]}
            series=${[{key:"charges",label:"charges"},{key:"succeeded",label:"succeeded"},{key:"failed",label:"failed"},{key:"pending",label:"pending"}]} />
          <${Mo} title=${`Success and failed rates per ${o} (% of LIVE charges)`} points=${t} span=${[e.from,e.to]}
            unit=" %" max=${100}
            series=${[{key:"successRate",label:"success rate"},{key:"failedRate",label:"failed rate"}]} />
        </div>`}
  </section>`}function sf({providers:e}){return e.length?p`<div class="scroll"><table>
    <caption>Each PSP's recent calls, as the <a href="#/providers">Providers</a> page shows them</caption>
    <thead><tr><th scope="col">Provider</th><th scope="col">Status</th><th scope="col">Health</th></tr></thead>
    <tbody>${e.map(t=>p`<tr>
      <th scope="row">${t.name} <code>${t.code}</code></th>
      <td><span class=${`badge ${t.active?"ok":"off"}`}>${t.active?"active":"inactive"}</span></td>
      <td>${gl(t.health)}</td>
    </tr>`)}</tbody>
  </table></div>`:p`<p class="muted">No provider is configured: every store decides in SHADOW only.</p>`}function cf({pending:e}){let t=e?.byAge??[],o=e?.oldest??[];return p`<section aria-labelledby="pending-title">
    <h2 id="pending-title">Pending LIVE charges</h2>
    <p>${e?.count??0} LIVE ${e?.count===1?"charge is":"charges are"} waiting for the payer or the PSP, whenever created.</p>
    <div class="scroll"><table class="narrow">
      <caption>Pending LIVE charges by age</caption>
      <thead><tr><th scope="col">Pending for</th><th scope="col">Charges</th></tr></thead>
      <tbody>${t.map((n,l)=>p`<tr class=${l>=Ui&&n.count?"alarm":void 0}>
        <th scope="row">${n.label}</th><td>${n.count}</td>
      </tr>`)}</tbody>
    </table></div>
    ${o.length?p`<${_l} intents=${o} caption=${`The ${o.length} oldest, oldest first`}
          extra=${{label:"Pending for",cell:n=>uf(n.createdAt)}} />`:null}
  </section>`}function uf(e){let t=Date.now()-Date.parse(e);if(!Number.isFinite(t))return"—";let o=Math.max(0,Math.floor(t/6e4));if(o<1)return"under a minute";if(o<120)return`${o} min`;let n=Math.floor(o/60);return n<48?`${n} h`:`${Math.floor(n/24)} days`}function df({stores:e}){return p`<section aria-labelledby="flagged-title">
    <h2 id="flagged-title">Stores trying a new version</h2>
    ${e?.length?p`<div class="scroll"><table>
          <caption>Stores running a canary or a shadow candidate</caption>
          <thead><tr><th scope="col">Store</th><th scope="col">Merchant</th><th scope="col">Mode</th><th scope="col">Canaries</th><th scope="col">Shadow candidates</th></tr></thead>
          <tbody>${e.map(t=>p`<tr>
            <th scope="row"><a href=${`#/stores/${encodeURIComponent(t.store)}`}>${t.store}</a></th>
            <td>${t.merchant}</td><td><span class=${`badge ${t.mode}`}>${t.mode}</span></td>
            <td>${(t.canaries??[]).length?p`<ul class="plain">${t.canaries.map(o=>p`<li>
              ${o.step} <${Ie} value=${o.version} /> on ${o.basisPoints/100} % since ${ae(o.startedAt)}
            </li>`)}</ul>`:p`<span class="muted">none</span>`}</td>
            <td>${(t.candidates??[]).length?p`<ul class="plain">${t.candidates.map(o=>p`<li>
              ${o.step} <${Ie} value=${o.version} /> since ${ae(o.since)}:${" "}
              <a href=${`#/shadow/${encodeURIComponent(t.store)}/${o.step}`}>${`${t.store} ${o.step} comparison`}</a>
            </li>`)}</ul>`:p`<span class="muted">none</span>`}</td>
          </tr>`)}</tbody>
        </table></div>`:p`<p class="muted">No store runs a canary or a shadow candidate.</p>`}
  </section>`}var vl=20,yl="";function Gi({me:e}){let[t,o]=F(yl),[n,l]=F(yl),[r,a]=F(0),c=Ne(),[u,m]=F(null),[$,f]=F(null);async function g(){let _=u;m(null),f(_),await c.run(()=>Bt(`/webhook-deliveries/${_.deliveryId}/resend`))!==void 0&&a(k=>k+1)}return p`<h1>Webhook deliveries</h1>
    <p>The events pixgate sends to merchants' webhook endpoints, every merchant's. Each one links to its payment, where
      its attempts are listed one by one.</p>
    <form class="filters" role="search" aria-label="Filter the deliveries" onSubmit=${_=>{_.preventDefault(),yl=t.trim(),l(yl)}}>
      <label>Merchant <input value=${t} onInput=${_=>o(_.target.value)} placeholder="every merchant" /></label>
      <button type="submit" class="primary">Filter</button>
    </form>
    <${$e} error=${c.error} />
    ${c.busy?p`<p role="status">Sending again…</p>`:null}
    ${c.result&&$?p`<p role="status">The <code>${$.event}</code> delivery to ${$.endpointName} is being sent again.</p>`:null}
    <${ji} id="failing" title="Failing" state="failing" merchant=${n} round=${r} me=${e} onResend=${m}
      caption="exhausted, a failed test, or retrying after a failed attempt"
      none="No delivery is failing." />
    <${ji} id="recent" title="All recent" merchant=${n} round=${r} me=${e} onResend=${m}
      none="No webhook delivery yet." />
    <${cn} open=${!!u} title="Send this delivery again?" confirmLabel="Resend"
      onCancel=${()=>m(null)} onConfirm=${g}>${u?p`The <code>${u.event}</code> event goes to
        ${u.endpointName} (<code>${u.endpointUrl}</code>) again, with the same event id: a receiver that keeps
        the ids it saw handles it once.`:null}<//>`}function ji({id:e,title:t,state:o,merchant:n,round:l,me:r,onResend:a,caption:c,none:u}){let[m,$]=F([]),[f,g]=F(!1),_=Ne(),S=de(async()=>{let y=await oe("/webhook-deliveries",{state:o,merchant:n,limit:vl});return $([]),g(y.length<vl),y},[o,n,l]),k=[...S.data??[],...m];return p`<section aria-labelledby=${`deliveries-${e}`}>
    <h2 id=${`deliveries-${e}`}>${t}</h2>
    <${pe} state=${S} what=${`the ${t.toLowerCase()} deliveries`}>${()=>k.length===0?p`<p class="muted">${u}</p>`:p`<div class="scroll"><table>
          <caption>${k.length} ${k.length===1?"delivery":"deliveries"}${f?"":" so far"}, newest first${c?`: ${c}`:""}</caption>
          <thead><tr><th scope="col">Endpoint</th><th scope="col">Merchant</th><th scope="col">Event</th><th scope="col">Status</th>
            <th scope="col">Attempts</th><th scope="col">Last error</th><th scope="col">Payment</th><th scope="col">Created</th>
            ${Pe(r,"operator")?p`<th scope="col"><span class="visually-hidden">Actions</span></th>`:null}</tr></thead>
          <tbody>${k.map(y=>p`<tr>
            <th scope="row"><span title=${y.endpointUrl}>${y.endpointName}</span></th>
            <td>${y.merchant}</td><td class="nowrap"><code>${y.event}</code></td>
            <td><span class=${`badge ${y.status}`}>${y.status}</span>${y.nextAttemptAt?p`<br /><span class="muted">next ${ae(y.nextAttemptAt)}</span>`:null}</td>
            <td>${y.attemptCount}</td>
            <td>${y.lastError?p`<code>${y.lastError}</code>`:p`<span class="muted">none</span>`}</td>
            <td class="nowrap">${y.paymentIntentId?p`<a href=${`#/payments/${y.paymentIntentId}`}><code title=${y.paymentIntentId}>…${y.paymentIntentId.slice(-12)}</code></a>`:p`<span class="muted">none</span>`}</td>
            <td>${ae(y.createdAt)}</td>
            ${Pe(r,"operator")?p`<td><button type="button" onClick=${()=>a(y)}
              aria-label=${`Resend ${y.event} to ${y.endpointName}`}>Resend</button></td>`:null}
          </tr>`)}</tbody>
        </table></div>`}<//>
    <${$e} error=${_.error} />
    ${S.data&&!f?p`<button type="button" disabled=${_.busy} onClick=${async()=>{let y=await _.run(()=>oe("/webhook-deliveries",{state:o,merchant:n,limit:vl,after:k[k.length-1].deliveryId}));y&&($([...m,...y]),g(y.length<vl))}}>Load more ${t.toLowerCase()} deliveries</button>`:null}
  </section>`}var Yi=`{
  "amount": 129.90,
  "reference": "evaluate-0001",
  "description": "2 cafes e 1 pao de queijo",
  "payer": {
    "name": "Ana Souza",
    "taxId": "529.982.247-25",
    "email": "ana.souza@example.com"
  },
  "metadata": {"orderId": "evaluate-0001"}
}`,co={store:"",chosen:{policy:"",provider:"",economics:""},charge:Yi,idempotencyKey:""};function Ki({me:e,store:t}){let o=de(async()=>{let[n,...l]=await Promise.all([jt("/stores",{},r=>r.code),...Ae.map(r=>oe(`/components/${r}`))]);return{stores:n,versions:Object.fromEntries(Ae.map((r,a)=>[r,l[a]]))}},[]);return p`<h1>Evaluate a charge</h1>
    <p>Runs one charge through a store's chain, as the charge route would, and shows the decision and its trace.
      Nothing is stored and no PSP is called.</p>
    ${Pe(e,"tester")?p`<${pe} state=${o} what="stores and versions">${n=>p`<${ff} key=${t??""} initial=${t} ...${n} />`}<//>`:p`<p role="note">Your role (${e.role}) may not evaluate charges: a tester may.</p>`}`}function ff({stores:e,versions:t,initial:o}){let n=e.find(k=>k.code===o)??e.find(k=>k.code===co.store)??e[0],[l,r]=F(n?.code??""),[a,c]=F(co.chosen),[u,m]=F(co.charge),[$,f]=F(co.idempotencyKey),g=Ne(),_=e.find(k=>k.code===l)?.components??{};async function S(k){k.preventDefault(),co={store:l,chosen:a,charge:u,idempotencyKey:$},await g.run(()=>{let y;try{y=JSON.parse(u)}catch(C){throw new ct(0,"invalid_json",`The charge is not JSON: ${C.message}`,"charge")}if(y===null||typeof y!="object"||Array.isArray(y))throw new ct(0,"invalid_json","The charge must be a JSON object.","charge");let D=Object.fromEntries(Object.entries(a).filter(([,C])=>C)),w={store:l,components:D};$.trim()&&(w.idempotencyKey=$.trim());let E=`${JSON.stringify(w).slice(0,-1)},"charge":${u.trim()}}`;return Jt("POST","/evaluate",{body:new Blob([E]),contentType:"application/json"})})}return p`<form class="stack" onSubmit=${S} aria-label="The charge to evaluate">
      <label>Store
        <select value=${l} onChange=${k=>r(k.target.value)}>
          ${e.map(k=>p`<option value=${k.code}>${k.code} (${k.mode})</option>`)}
        </select>
      </label>
      <fieldset>
        <legend>Versions</legend>
        ${Ae.map(k=>p`<label>${k}
          <select value=${a[k]} onChange=${y=>c({...a,[k]:y.target.value})}>
            <option value="">the store's active (${pf(_[k])})</option>
            <option value="bundled">bundled</option>
            ${t[k].map(y=>p`<option value=${y.version}>${y.version.slice(0,12)} ${y.label?`${y.label} `:""}(${y.source})</option>`)}
          </select>
        </label>`)}
      </fieldset>
      <label class="wide"><span>Charge (JSON, as a merchant sends it, without <code>store</code>)</span>
        <textarea rows="14" spellcheck="false" value=${u} onInput=${k=>m(k.target.value)} aria-describedby="charge-help"></textarea>
      </label>
      <p id="charge-help" class="muted">Amount in reais with at most two decimals, a reference, a description and the
        payer (name, CPF or CNPJ, e-mail); metadata is optional.</p>
      <label>Idempotency-Key (optional)
        <input value=${$} onInput=${k=>f(k.target.value)} maxLength="200" size="48"
          placeholder="the store's canary arms as for this key" />
      </label>
      <div class="row">
        <button type="submit" class="primary" disabled=${g.busy||!l}>Evaluate</button>
        <button type="button" onClick=${()=>m(Yi)}>Reset the charge</button>
      </div>
    </form>
    <${$e} error=${g.error} />
    ${g.busy?p`<p role="status">Evaluating…</p>`:null}
    ${g.result?p`<${hf} evaluation=${g.result} store=${co.store} />`:null}`}function pf(e){return e?/^[0-9a-f]{64}$/.test(e)?e.slice(0,12):e:"none"}function hf({evaluation:e,store:t}){let o=e.outcome??{};return p`<section aria-labelledby="evaluation-title" class="report">
    <h2 id="evaluation-title">Decision for ${t}</h2>
    <dl class="facts">
      <dt>Outcome</dt><dd><span class=${`badge ${o.status==="resolved"?"ok":"off"}`}>${o.status}</span> ${Dn(o)}</dd>
      ${o.status==="resolved"?p`
        <dt>Policy</dt><dd><code>${o.policy}</code></dd>
        <dt>Provider</dt><dd>${o.providerCode}</dd>
        <dt>Fee / net</dt><dd>${lt(o.feeCentavos)} / ${lt(o.netCentavos)}, settles ${o.settlementDate}</dd>
        ${e.routes?.length?p`<dt>Routes</dt><dd>${e.routes.length}, tried in the order below by a LIVE charge</dd>`:null}`:p`<dt>Message</dt><dd>${o.message}</dd>`}
    </dl>
    ${e.canaries?.length?p`<h3>Canary arms</h3><ul>${e.canaries.map(n=>p`<li>
      ${n.step}: the ${n.arm==="canary"?"canary":"active version"} (canary <${Ie} value=${n.version} /> on ${n.percent} %)</li>`)}</ul>`:null}
    <h3>Trace</h3>
    <${Br} trace=${e.trace??{}} />
    <${Dt} value=${e} summary="The evaluation as JSON" />
  </section>`}var mf=[["overview","Overview"],["stores","Stores"],["components","Components"],["replay","Replay"],["shadow","Shadow"],["providers","Providers"],["payments","Payments"],["deliveries","Webhook deliveries"],["evaluate","Evaluate"],["operators","Operators"],["audit","Audit trail"]];function qi(){let e=window.location.hash.replace(/^#\/?/,"").split("/").map(decodeURIComponent);return{section:e[0]||"overview",id:e[1]||null,sub:e[2]||null}}function $f(){let[e,t]=F(qi);return Ut(()=>{let o=()=>t(qi());return window.addEventListener("hashchange",o),()=>window.removeEventListener("hashchange",o)},[]),e}function gf({onSignedIn:e,notice:t}){let[o,n]=F(null),[l,r]=F(!1),a=Wt(null);Ut(()=>{a.current?.focus(),performance.mark("console-interactive")},[]);async function c(u){u.preventDefault();let m=a.current.value.trim();if(!m){n(new ct(0,"missing_token","Enter an operator token."));return}r(!0),n(null);try{let $=await sr(m);Ja(m),a.current.value="",e($)}catch($){n($.status===401?new ct(401,$.code,"This token was not accepted: check it, or ask an admin for a new one."):$)}finally{r(!1)}}return p`<main id="main" class="signin">
    <form method="post" onSubmit=${c} aria-labelledby="signin-title">
      <h1 id="signin-title">Sign in to the pixgate console</h1>
      ${t?p`<p role="status">${t}</p>`:null}
      <label for="token">Operator token</label>
      <input id="token" ref=${a} type="password" autocomplete="off" spellcheck="false" required aria-describedby="token-help" />
      <p id="token-help" class="muted">
        Your operator token, or the instance's admin token. It stays in this tab only and is
        forgotten when the tab closes.
      </p>
      <button type="submit" class="primary" disabled=${l}>Sign in</button>
      <${$e} error=${o} />
    </form>
  </main>`}function _f({route:e,me:t}){switch(e.section){case"overview":return p`<${Wi} me=${t} />`;case"stores":return e.id?p`<${ls} code=${e.id} me=${t} />`:p`<${os} me=${t} />`;case"components":return p`<${rs} me=${t} />`;case"replay":return p`<${Mi} me=${t} />`;case"shadow":return p`<${Ri} me=${t} store=${e.id} step=${e.sub} />`;case"providers":return p`<${Ni} me=${t} />`;case"payments":return e.id?p`<${Fi} id=${e.id} me=${t} />`:p`<${Oi} me=${t} />`;case"deliveries":return p`<${Gi} me=${t} />`;case"evaluate":return p`<${Ki} me=${t} store=${e.id} />`;case"operators":return p`<${Vi} me=${t} />`;case"audit":return p`<${zi} me=${t} />`;default:return p`<h1>Not found</h1><p>No such section. <a href="#/overview">Go to the overview</a>.</p>`}}function bf({me:e,onSignOut:t}){let o=$f(),n=Wt(null),l=Wt(!0);return Ut(()=>{if(l.current){l.current=!1;return}n.current?.focus()},[o.section,o.id,o.sub]),p`
    <a class="skip" href="#/" onClick=${r=>{r.preventDefault(),n.current?.focus()}}>Skip to content</a>
    <header class="top">
      <span class="brand">pixgate</span>
      <nav aria-label="Sections">
        <ul>
          ${mf.map(([r,a])=>p`<li><a href=${`#/${r}`} aria-current=${o.section===r?"page":void 0}>${a}</a></li>`)}
        </ul>
      </nav>
      <div class="who">
        <span>${e.name} <span class="role">${e.role}</span></span>
        <button type="button" onClick=${t}>Sign out</button>
      </div>
    </header>
    <main id="main" ref=${n} tabindex="-1">
      <${_f} route=${o} me=${e} />
    </main>`}function vf(){let[e,t]=F(null),[o,n]=F(!!xo()),[l,r]=F(null);return Ut(()=>{Qa(()=>{el(),t(null),r("Your session ended (the token was revoked or is no longer valid). Sign in again.")});let a=xo();a&&sr(a).then(t,()=>el()).finally(()=>n(!1))},[]),o?p`<p role="status">Checking your session…</p>`:e?p`<${bf} me=${e} onSignOut=${()=>{el(),t(null),r("Signed out.")}} />`:p`<${gf} notice=${l} onSignedIn=${a=>{r(null),t(a)}} />`}var Ji=document.getElementById("app");Ji.replaceChildren();Ra(p`<${vf} />`,Ji);})();
