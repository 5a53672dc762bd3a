(()=>{var ve,Ca,Dc,sn,Gl,Jo,Ea,Ko,Aa,Yl,Kl,Lc,vo=Symbol.for("pv"),Qo={},Zo=[],Ic=/^m(i|n|o|s|text|space)$/,ql=Array.isArray,Jl=Zo.slice,kn=Object.assign;function Sn(e){e&&e.parentNode&&e.remove()}function Ta(e,t,o){var n,l,r,a={},c=arguments.length;for(r in t)r=="key"?n=t[r]:r=="ref"&&typeof e!="function"?l=t[r]:a[r]=t[r];return c>2&&(a.children=c>3?Jl.call(arguments,2):o),bo(e,a,n,l,null)}function bo(e,t,o,n,l){var r={type:e,props:t,key:o,ref:n,__k:null,__:null,__b:0,__e:null,__c:null,constructor:vo,__v:l||++Ca,__i:-1,__u:0};return!l&&ve.vnode&&ve.vnode(r),r}function Xo(e){return e.children}function Yo(e,t){this.props=e,this.context=t,this.__g=0}function cn(e,t){if(t==null)return e.__&&cn(e.__,e.__i+1);for(var o;t<e.__k.length;t++)if((o=e.__k[t])&&o.__e)return o.__e;return typeof e.type!="function"||e.props.__P?null:cn(e)}function Mc(e){var t,o=e.__v,n=o.__e,l=[],r=[],a=e.__P;a&&((t=kn({constructor:vo},o)).__v=o.__v+1,ve.vnode&&ve.vnode(t),Ql(a,t,o,e.__n,a.namespaceURI,32&o.__u?[n]:null,l,n||cn(o),32&o.__u,r),t.__v=o.__v,t.__.__k[t.__i]=t,Ra(l,t,r),o.__=o.__e=null,t.__e!=n&&Pa(t))}function Pa(e){if((e=e.__)&&e.__c&&!e.props.__P)return e.__e=null,e.__k.some(function(t){return t&&(e.__e=t.__e)}),Pa(e)}function ka(e){(8&e.__g||(e.__g|=8,sn.push(e),Jo++))&&Gl==ve.debounceRendering||((Gl=ve.debounceRendering)||queueMicrotask)(Da)}function Da(){try{for(var e,t=1;sn.length;)sn.length>t&&sn.sort(Ea),e=sn.shift(),t=sn.length,8&e.__g&&Mc(e)}finally{(Jo=sn.length)&&(Gl||queueMicrotask)(Da)}}function La(e,t,o,n,l,r,a,c,u,m,$){var p,g,_,S,x,y,D=n.__k||Zo,w=t.length;for(u=Rc(o,t,D,u,w),p=0;p<w;p++)(_=o.__k[p])!=null&&(g=~_.__i&&D[_.__i]||Qo,_.__i=p,y=Ql(e,_,g,l,r,a,c,u,m,$),S=_.__e,(g.ref!=_.ref||8&g.__u)&&(g.ref&&Zl(g.ref,null,_,g),_.ref&&$.push(_.ref,_.__c||S,_)),x=x||S,4&_.__u?(u=Ia(_,u,e,!g.__v),g.__e&&(g.__e=null)):typeof _.type=="function"&&y!==void 0?u=y:S&&(u=S.nextSibling),_.__u&=-21);return o.__e=x,u}function Rc(e,t,o,n,l){var r,a,c,u,m,$,p,g,_,S=o.length,x=S,y=0,D=0,w=e.__k=Array(l);for(r=0;r<l;r++)(a=t[r])!=null&&typeof a!="boolean"&&typeof a!="function"?(typeof a!="object"||a.constructor===String?a=w[r]=bo(null,a):ql(a)?a=w[r]=bo(Xo,{children:a}):a.constructor===vo&&a.__b?a=w[r]=bo(a.type,a.props,a.key,a.ref,a.__v):w[r]=a,u=r+y,a.__=e,a.__b=e.__b+1,c=null,~(m=a.__i=Nc(a,o,u,x))&&(x--,(c=o[m])&&(c.__u|=2)),c&&c.__v?(a.__u|=16,m==u-1?y--:m==u+1?y++:m!=u&&(m>u?y--:y++,D=1)):(~m||(l>S?y--:l<S&&y++),typeof a.type!="function"&&(a.__u|=4))):w[r]=null;if(D){for($=[],p=[],r=0;r<l;r++)if((a=w[r])&&16&a.__u){for(y=0,g=$.length;y<g;)$[_=y+g>>1]<a.__i?y=_+1:g=_;$[y]=a.__i,p[r]=y+1}for(y=$.length;r--;)p[r]&&(p[r]==y?y--:w[r].__u|=4)}if(x)for(r=0;r<S;r++)!(c=o[r])||2&c.__u||(c.__e==n&&(n=cn(c)),Xl(c,c));return n}function Ia(e,t,o,n){var l,r,a,c;if(typeof e.type=="function"){if(e.props.__P)return t;if(l=e.__k)for(r=0;r<l.length;r++)l[r]&&(l[r].__=e,t=Ia(l[r],t,o,!1));return t}for(t&&!t.parentNode&&(t=cn(e))&&!t.parentNode&&(t=null),a=e.__e,c=t;c&&c.nodeType==8;)c=c.nextSibling;for(a!=c&&(!n&&o.moveBefore&&a.parentNode?o.moveBefore(a,t):o.insertBefore(a,t||null)),t=a;(t=t&&t.nextSibling)&&t.nodeType==8&&!t.data.startsWith("$s"););return t}function Nc(e,t,o,n){var l,r=e.key,a=e.type,c=t[o],u=c&&!(2&c.__u);if(c===null&&r==null||u&&r==c.key&&a==c.type)return o;if(n>(u?1:0)){for(l=o-1;l>=0;l--)if((c=t[l])&&!(2&c.__u)&&r==c.key&&a==c.type)return l;for(l=o+1;l<t.length;l++)if((c=t[l])&&!(2&c.__u)&&r==c.key&&a==c.type)return l}return-1}function xa(e,t,o){o==null&&(o=""),t[0]=="-"?e.setProperty(t,o):e[t]=o}function Go(e,t,o,n,l){var r,a;if(t=="style")if(typeof o=="string")e.style.cssText=o;else{if(typeof n=="string"&&(e.style.cssText=n=""),n)for(t in n)o&&t in o||xa(e.style,t);if(o)for(t in o)n&&o[t]==n[t]||xa(e.style,t,o[t])}else if(t[0]=="o"&&t[1]=="n")typeof o!="function"&&(o=null),typeof n!="function"&&(n=null),(e.__e||(e.__e={}))[t]=o,o&&n||(a=Kl[t]||(Kl[t]=Oc(t)),(e.__a||(e.__a={}))[t]=Yl,r=t!=(t=t.replace(Aa,"$1")),(t=t.slice(2))[0]<"a"&&(t=t.toLowerCase()),o?e.addEventListener(t,a,r):e.removeEventListener(t,a,r));else{if(l=="http://www.w3.org/2000/svg")t=t.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(t!="width"&&t!="height"&&t!="href"&&t!="list"&&t!="form"&&t!="tabIndex"&&t!="download"&&t!="rowSpan"&&t!="colSpan"&&t!="role"&&t!="popover"&&t in e)try{return void(e[t]=o??"")}catch{}if(typeof o=="function")return;o==null||o===!1&&t[4]!="-"?e.removeAttribute(t):e.setAttribute(t,t=="popover"&&o==1?"":o)}}function Oc(e){return function(t){var o=this.__e;if(o){if(o=o[e],t[Ko]==null)t[Ko]=Yl++;else if(t[Ko]<this.__a[e])return;return o(ve.event?ve.event(t):t)}}}function Ql(e,t,o,n,l,r,a,c,u,m){var $,p,g,_,S,x,y,D,w,E,C,q,N,J,B,Z,W,P,j=t.type;if(t.constructor!==vo)return null;128&o.__u&&(u=32&o.__u,$=o.__c.__z)&&(t.__u|=u,p=r=[],$.nodeType==8?c=qo($,r):r.push($),c=r[0]||c),($=ve.__b)&&$(t);e:if(typeof j=="function"){g=a.length;try{if(D=t.props,w=($=j.prototype)&&$.render,E=($=j.contextType)&&n[$.__c],C=$?E?E.props.value:$.__:n,(_=o.__c)?(t.__c=_,2&_.__g&&(_.__g|=1)):(w?t.__c=_=new j(D,C):(t.__c=_=new Yo(D,C),_.constructor=j,_.render=Vc),E&&E.sub(_),_.state||(_.state={}),_.__n=n,_.__g|=8,_.__h=[],_.__k=[]),w&&(_.__s||(_.__s=_.state),j.getDerivedStateFromProps&&(_.__s==_.state&&(_.__s=kn({},_.__s)),kn(_.__s,j.getDerivedStateFromProps(D,_.__s)))),S=_.props,x=_.state,_.__v=t,o.__c){if(D!==S&&w&&!j.getDerivedStateFromProps&&_.componentWillReceiveProps&&_.componentWillReceiveProps(D,C),t.__v==o.__v&&!(8&_.__g)||!(4&_.__g)&&_.shouldComponentUpdate&&_.shouldComponentUpdate(D,_.__s,C)===!1){t.__v!=o.__v&&(_.props=D,_.state=_.__s,_.__g&=-9),t.__e=o.__e,t.__k=o.__k,t.__k.some(function(I){I&&(I.__=t)}),Zo.push.apply(_.__h,_.__k),_.__k=[],_.__h.length&&a.push(_),c=cn(o);break e}_.componentWillUpdate&&_.componentWillUpdate(D,_.__s,C),w&&_.componentDidUpdate&&_.__h.push(function(){_.componentDidUpdate(S,x,y)})}else w&&!j.getDerivedStateFromProps&&_.componentWillMount&&_.componentWillMount(),w&&_.componentDidMount&&_.__h.push(_.componentDidMount);_.context=C,_.props=D,_.__P=e,_.__g&=-5,q=ve.__r,N=w?25:0;do _.__g&=-9,q&&q(t),$=_.render(_.props,_.state=_.__s,_.context);while(8&_.__g&&++N<25);w&&(Zo.push.apply(_.__h,_.__k),_.__k=[]),_.state=_.__s,_.getChildContext&&(n=kn({},n,_.getChildContext())),w&&o.__c&&_.getSnapshotBeforeUpdate&&(y=_.getSnapshotBeforeUpdate(S,x)),J=$&&$.type===Xo&&$.key==null?$.props.children:$,D.__P&&($=c,l=(e=D.__P).namespaceURI,u=r=null,o.props&&o.props.__P!=e&&(o.__k.some(function(I){I&&Xl(I,I)}),o.__k=null),c=o.__k?cn(o,0):null),c=La(e,ql(J)?J:[J],t,o,n,l,r,a,c,u,m),D.__P&&(t.__e=null,c=$),t.__u&=-161,p&&p.some(Sn),_.__h.length&&a.push(_),1&_.__g&&(_.__g&=-4)}catch(I){if(a.length=g,t.__v=null,u||r)if(I&&I.then){if(t.__u|=128|u,r){for(~(W=r.indexOf(c||void 0))||(W=r.length);(P=r[W-1])&&P.nodeType==8;)W--;for(;W<r.length;W++)if(P=r[W])if(r[W]=null,B){if(P==Z)break}else{if(P.nodeType!=8)break;P.data.startsWith("$s")&&(Z=qo(B=P))}}if(!B){for(;c&&c.nodeType==8&&c.nextSibling;)c=c.nextSibling;B=c}($=qo(B=t.__c.__z||(t.__c.__z=B)))?(t.__e=B,c=$):t.__e=c,c=c&&c.nextSibling}else r&&r.some(Sn);else t.__e=o.__e;t.__k||(t.__k=o.__k||[]),I&&I.then||Ma(t),ve.__e(I,t,o)}}else c=t.__e=Fc(o.__e,t,o,n,l,r,a,u,m,e);return($=ve.diffed)&&$(t),c}function qo(e,t){if(e&&e.nodeType==8&&e.data.startsWith("$s"))for(var o=1;e=e.nextSibling;){if(e.nodeType==8){if(e.data.startsWith("$s"))o++;else if(e.data.startsWith("/$s")&&!--o)return e}t&&t.push(e)}}function Ma(e){e&&(e.__c&&(e.__c.__g|=4),e.__k&&e.__k.some(Ma))}function Ra(e,t,o){for(var n=0;n<o.length;)Zl(o[n++],o[n++],o[n++]);ve.__c&&ve.__c(t,e),e.some(function(l){try{e=l.__h,l.__h=[],e.some(function(r){r.call(l)})}catch(r){ve.__e(r,l.__v)}})}function Fc(e,t,o,n,l,r,a,c,u,m){var $,p,g,_,S,x,y,D,w=o.props||Qo,E=t.props,C=t.type;if(C=="svg"?l="http://www.w3.org/2000/svg":C=="math"?l="http://www.w3.org/1998/Math/MathML":l||(l="http://www.w3.org/1999/xhtml"),r){for($=0;$<r.length;$++)if((S=r[$])&&(C?S.localName==C:S.nodeType==3)){e=S,r[$]=null;break}}if(!e){if(D=m.ownerDocument||document,!C)return D.createTextNode(E);e=D.createElementNS(l,C,E.is?E:m),c&&(ve.__m&&ve.__m(t,r),c=!1),r=null}if(C){if(m=C=="template"&&e.content||e,r=C=="textarea"&&E.defaultValue!=null?null:r&&Jl.call(m.childNodes),!c&&r)for(w={},$=0;$<e.attributes.length;$++)w[(S=e.attributes[$]).name]=S.value;for($ in w)S=w[$],$=="dangerouslySetInnerHTML"?g=S:$=="children"||$ in E||$=="value"&&"defaultValue"in E||$=="checked"&&"defaultChecked"in E||Go(e,$,null,S,l);for($ in E)S=E[$],$=="children"?_=S:$=="dangerouslySetInnerHTML"?p=S:$=="value"?x=S:$=="checked"?y=S:c&&typeof S!="function"||w[$]===S||Go(e,$,S,w[$],l);p?(c||g&&(p.__html==g.__html||p.__html==e.innerHTML)||(e.innerHTML=p.__html),t.__k=[]):(g&&(e.textContent=""),(C=="foreignObject"||l=="http://www.w3.org/1998/Math/MathML"&&Ic.test(C))&&(l="http://www.w3.org/1999/xhtml"),La(m,ql(_)?_:[_],t,o,n,l,r,a,r?r[0]:o.__k&&cn(o,0),c,u),r&&r.some(Sn)),c&&C!="textarea"||($="value",C=="progress"&&x==null?e.removeAttribute($):x==null||x===e[$]&&(C!="progress"||x)||Go(e,$,x,w[$],l),$="checked",y!=null&&y!=e[$]&&Go(e,$,y,w[$],l))}else w===E||c&&e.data==E||(e.data=E);return e}function Zl(e,t,o,n){try{typeof e=="function"?t?t.__x=e(t)||1:n&&(n=n.__c||n.__e)&&(t=n.__x)&&(n.__x=null,typeof t=="function"?t():e(null)):e.current=t}catch(l){ve.__e(l,o)}}function Xl(e,t,o){var n,l,r,a;if(ve.unmount&&ve.unmount(e),!(n=e.ref)||n.current&&n.current!=e.__e||Zl(n,null,t,e),n=e.__c){if(n.componentWillUnmount)try{n.componentWillUnmount()}catch(c){ve.__e(c,t)}n.__P=n.__n=null}if(n=e.__k)for(a=0;a<n.length;a++)n[a]&&Xl(n[a],t,typeof e.type!="function"||o&&!e.props.__P);!o&&(n=e.__c)&&(n=n.__z)&&(l=qo(n,r=[]))&&(n==e.__e&&r.some(Sn),Sn(l),Sn(n)),o||Sn(e.__e),e.__e=e.__c=e.__=null}function Vc(e,t,o){return this.constructor(e,o)}function Na(e,t){var o,n,l,r;ve.__&&ve.__(e,t),t.nodeType==9&&(t=t.documentElement),n=(o=e&&32&e.__u)?null:t.__k,t.__k=bo(Xo,{children:[e]}),l=[],r=[],Ql(t,t.__k,n||Qo,Qo,t.namespaceURI,n?null:t.firstChild?Jl.call(t.childNodes):null,l,n?n.__e:t.firstChild,o,r),Ra(l,t.__k,r),t.__k.props.children=null}ve={__e:function(e,t,o,n){for(var l,r,a;t=t.__;)if((l=t.__c)&&!(1&l.__g)){l.__g|=4;try{if((a=(r=l.constructor)&&r.getDerivedStateFromError)&&l.setState(r.getDerivedStateFromError(e)),l.componentDidCatch&&(l.componentDidCatch(e,n||{}),a=1),a&&8&l.__g)return void(l.__g|=2)}catch(c){e=c}}throw Jo=0,e}},Ca=0,Dc=function(e){return e!=null&&e.constructor===vo},Yo.prototype.setState=function(e,t){var o=this.__s;o&&o!=this.state||(o=this.__s=kn({},this.state)),typeof e=="function"&&(e=e(kn({},o),this.props)),e&&(kn(o,e),this.__v&&(t&&this.__k.push(t),ka(this)))},Yo.prototype.forceUpdate=function(e){this.__v&&(this.__g|=4,e&&this.__h.push(e),ka(this))},Yo.prototype.render=Xo,sn=[],Jo=0,Ea=function(e,t){return e.__v.__b-t.__v.__b},Ko=Symbol(),Aa=/(PointerCapture)$|Capture$/i,Yl=0,Kl={},Lc=0;var wo,ze,er,Oa,tr=Object.is,So=0,Ga=[],nr=[],Re=ve,Fa=Re.__b,Va=Re.__r,za=Re.diffed,Ua=Re.__c,Ha=Re.unmount,Wa=Re.__;function lr(e,t){Re.__h&&Re.__h(ze,e,So||t),So=0;var o=ze.__H||(ze.__H={__:[],__h:[]});return e>=o.__.length&&o.__.push({}),o.__[e]}function F(e){return So=1,zc(qa,e)}function zc(e,t,o){var n=lr(wo++,2);if(n.t=e,!n.__c&&(n.__=[o?o(t):qa(void 0,t),function(r){var a=(n.__N||n.__)[0],c=n.t(a,r);tr(a,c)||(n.__N=[c,n.__[1]],n.__c.setState({}))}],n.__c=ze,!ze.__f)){ze.__f=!0;var l=ze.shouldComponentUpdate;ze.shouldComponentUpdate=function(r,a,c){var u=this.__H;if(!u)return!0;var m=!1,$=this.props!=r;if(u.__.some(function(g){g.__N&&(m=!0,tr(g.__[0],g.__N[0])||($=!0))}),l){var p=l.call(this,r,a,c);return m?p||$:p}return!m||$}}return n.__}function Ht(e,t){var o=lr(wo++,3);!Re.__s&&Ya(o.__H,t)&&(o.__P=!0,o.__=e,o.u=t,ze.__H.__h.push(o))}function Wt(e){return So=5,Ka(function(){return{current:e}},[])}function Ka(e,t){var o=lr(wo++,7);return Ya(o.__H,t)&&(o.__=e(),o.__H=t),o.__}function rr(e,t){return So=8,Ka(function(){return e},t)}function Uc(){var e;do{for(;e=nr.shift();)try{yo(e)}catch(o){Re.__e(o,{__:(e=e.__P)&&e.__v})}for(;e=Ga.shift();){var t=e.__H;if(e.__P&&t)try{t.__h.some(yo),t.__h.some(or),t.__h=[]}catch(o){t.__h=[],Re.__e(o,e.__v)}}}while(nr.length)}Re.__b=function(e){ze=null,Fa&&Fa(e)},Re.__=function(e,t){e&&t.__k&&t.__k.__m&&(e.__m=t.__k.__m),Wa&&Wa(e,t)},Re.__r=function(e){Va&&Va(e),wo=0;var t=(ze=e.__c).__H;t&&(er==ze?ze.__h=[]:(t.__h.some(yo),t.__h.some(or),wo=0),t.__h=[],t.__.some(function(o){o.__N&&(o.__=o.__N),o.u=o.__N=void 0})),er=ze},Re.diffed=function(e){za&&za(e);var t=e.__c;t&&t.__H&&(t.__H.__h.length&&ja(Ga.push(t)),t.__H.__.some(function(o){o.u&&(o.__H=o.u)})),er=ze=null},Re.__c=function(e,t){t.some(function(o){try{o.__h.some(yo),o.__h=o.__h.filter(function(n){return!n.__||or(n)})}catch(n){o.__h=[function(){throw n}]}}),Ua&&Ua(e,t)},Re.unmount=function(e){Ha&&Ha(e);var t,o,n=e.__c;n&&n.__H&&(n.__H.__.some(function(l){try{if(l.__P&&l.__c){if(o===void 0){for(o=e.__;o&&(!o.__c||!o.__c.__P);)o=o.__;o=o&&o.__c}l.__P=o,ja(nr.push(l))}else yo(l)}catch(r){t=r}}),n.__H=void 0,t&&Re.__e(t,n.__v))};var Ba=typeof requestAnimationFrame=="function";function Hc(e){var t,o=function(){clearTimeout(n),Ba&&cancelAnimationFrame(t),setTimeout(e)},n=setTimeout(o,35);Ba&&(t=requestAnimationFrame(o))}function ja(e){e!=1&&Oa==Re.requestAnimationFrame||((Oa=Re.requestAnimationFrame)||Hc)(Uc)}function yo(e){var t=ze,o=e.__c;typeof o=="function"&&(e.__c=void 0,o()),ze=t}function or(e){var t=ze;e.__c=e.__(),ze=t}function Ya(e,t){return!e||e.length!=t.length||t.some(function(o,n){return!tr(o,e[n])})}function qa(e,t){return typeof t=="function"?t(e):t}var ar="pixgate.operatorToken",Ja="/admin/v1";function ko(){return sessionStorage.getItem(ar)}function Qa(e){sessionStorage.setItem(ar,e)}function el(){sessionStorage.removeItem(ar)}var ct=class extends Error{constructor(t,o,n,l){super(n),this.status=t,this.code=o,this.field=l}},sr=()=>{};function Za(e){sr=e}async function Qt(e,t,{body:o,query:n,token:l,contentType:r}={}){let a=l??ko(),c={Accept:"application/json"};a&&(c.Authorization=`Bearer ${a}`);let u;o instanceof Blob||o instanceof ArrayBuffer?(c["Content-Type"]=r??"application/octet-stream",u=o):o!==void 0&&(c["Content-Type"]="application/json",u=JSON.stringify(o));let m=Ja+t;if(n){let _=new URLSearchParams;for(let[x,y]of Object.entries(n))y!=null&&y!==""&&_.set(x,y);let S=_.toString();S&&(m+=`?${S}`)}let $;try{$=await fetch(m,{method:e,headers:c,body:u,credentials:"omit",cache:"no-store"})}catch(_){throw new ct(0,"network_error",`The admin API did not answer (${_.message}).`)}let p=null,g=await $.text();if(g)try{p=JSON.parse(g)}catch{p=null}if(!$.ok){let _=p?.error??{},S=new ct($.status,_.code??`http_${$.status}`,_.message??`${$.status} ${$.statusText}`,_.field);throw $.status===401&&l===void 0&&sr(S),S}return p?.data??p}async function Xa(e,t){let o={Accept:"application/x-ndjson","Content-Type":"application/json"},n=ko();n&&(o.Authorization=`Bearer ${n}`);let l;try{l=await fetch(`${Ja}/replays`,{method:"POST",headers:o,body:JSON.stringify(e),credentials:"omit",cache:"no-store"})}catch(c){throw new ct(0,"network_error",`The admin API did not answer (${c.message}).`)}if(!l.ok||!l.headers.get("content-type")?.startsWith("application/x-ndjson")){let u=(await l.json().catch(()=>null))?.error??{},m=new ct(l.status,u.code??`http_${l.status}`,u.message??`${l.status} ${l.statusText}`,u.field);throw l.status===401&&sr(m),m}let r=l.body.pipeThrough(new TextDecoderStream).getReader(),a="";for(;;){let{value:c,done:u}=await r.read();if(u)break;a+=c;let m;for(;(m=a.indexOf(`
`))>=0;){let $=JSON.parse(a.slice(0,m));if(a=a.slice(m+1),$.progress)t($.progress);else{if($.success)return $.data;throw new ct(200,$.error?.code??"replay_failed",$.error?.message??"The replay failed.")}}}throw new ct(0,"network_error","The replay ended before its report.")}var oe=(e,t)=>Qt("GET",e,{query:t}),Bt=(e,t)=>Qt("POST",e,{body:t??{}}),xo=(e,t)=>Qt("PUT",e,{body:t}),Co=e=>Qt("DELETE",e);async function jt(e,t,o,n=1e3){let l=[],r;for(;;){let a=await oe(e,{...t,limit:100,after:r});if(l.push(...a),a.length<100||l.length>=n)return l;r=o(a[a.length-1])}}async function ir(e){return Qt("GET","/operators/me",{token:e})}var ts=function(e,t,o,n){var l;t[0]=0;for(var r=1;r<t.length;r++){var a=t[r++],c=t[r]?(t[0]|=a?1:2,o[t[r++]]):t[++r];a===3?n[0]=c:a===4?n[1]=Object.assign(n[1]||{},c):a===5?(n[1]=n[1]||{})[t[++r]]=c:a===6?n[1][t[++r]]+=c+"":a?(l=e.apply(c,ts(e,c,o,["",null])),n.push(l),c[0]?t[0]|=2:(t[r-2]=0,t[r]=l)):n.push(c)}return n},es=new Map;function ns(e){var t=es.get(this);return t||(t=new Map,es.set(this,t)),(t=ts(this,t.get(e)||(t.set(e,t=(function(o){for(var n,l,r=1,a="",c="",u=[0],m=function(g){r===1&&(g||(a=a.replace(/^\s*\n\s*|\s*\n\s*$/g,"")))?u.push(0,g,a):r===3&&(g||a)?(u.push(3,g,a),r=2):r===2&&a==="..."&&g?u.push(4,g,0):r===2&&a&&!g?u.push(5,0,!0,a):r>=5&&((a||!g&&r===5)&&(u.push(r,0,a,l),r=6),g&&(u.push(r,g,0,l),r=6)),a=""},$=0;$<o.length;$++){$&&(r===1&&m(),m($));for(var p=0;p<o[$].length;p++)n=o[$][p],r===1?n==="<"?(m(),u=[u],r=3):a+=n:r===4?a==="--"&&n===">"?(r=1,a=""):a=n+a[0]:c?n===c?c="":a+=n:n==='"'||n==="'"?c=n:n===">"?(m(),r=1):r&&(n==="="?(r=5,l=a,a=""):n==="/"&&(r<5||o[$][p+1]===">")?(m(),r===3&&(u=u[0]),r=u,(u=u[0]).push(2,0,r),r=0):n===" "||n==="	"||n===`
`||n==="\r"?(m(),r=2):a+=n),r===3&&a==="!--"&&(r=4,u=u[0])}return m(),u})(e)),t),arguments,[])).length>1?t:t[0]}var f=ns.bind(Ta),tl=["viewer","tester","operator","admin"];function Pe(e,t){return tl.indexOf(e?.role)>=tl.indexOf(t)}function de(e,t){let[o,n]=F({loading:!0,data:void 0,error:null}),l=rr(()=>{let r=!0;return n(a=>({...a,loading:!0,error:null})),e().then(a=>r&&n({loading:!1,data:a,error:null}),a=>r&&n({loading:!1,data:void 0,error:a})),()=>{r=!1}},t);return Ht(l,[l]),{...o,reload:l}}function Ne(){let[e,t]=F({busy:!1,error:null,result:void 0}),o=rr(async n=>{t({busy:!0,error:null,result:void 0});try{let l=await n();return t({busy:!1,error:null,result:l}),l}catch(l){t({busy:!1,error:l,result:void 0});return}},[]);return{...e,run:o}}function $e({error:e}){return e?f`<p class="error" role="alert">
    ${e.message}${e.code?f` <code>${e.code}</code>`:null}
  </p>`:null}function Wc({what:e}){return f`<p class="muted" role="status">Loading ${e}…</p>`}function pe({state:e,what:t,children:o}){return e.error?f`<${$e} error=${e.error} />`:e.loading&&e.data===void 0?f`<${Wc} what=${t} />`:o(e.data)}function un({open:e,title:t,children:o,confirmLabel:n,onConfirm:l,onCancel:r}){let a=Wt(null);return Ht(()=>{let c=a.current;c&&(e&&!c.open&&c.showModal(),!e&&c.open&&c.close())},[e]),f`<dialog ref=${a} aria-labelledby="confirm-title" onCancel=${c=>{c.preventDefault(),r()}}>
    <h2 id="confirm-title">${t}</h2>
    <div>${o}</div>
    <div class="actions">
      <button type="button" onClick=${r}>Cancel</button>
      <button type="button" class="primary" onClick=${l}>${n}</button>
    </div>
  </dialog>`}function Dt({value:e,summary:t}){return f`<details class="json">
    <summary>${t??"JSON"}</summary>
    <pre tabindex="0">${JSON.stringify(e,null,2)}</pre>
  </details>`}function Ie({value:e}){return e?/^[0-9a-f]{64}$/.test(e)?f`<code title=${e}>${e.slice(0,12)}</code>`:f`<code>${e}</code>`:f`<span class="muted">none</span>`}var os=new Intl.NumberFormat("pt-BR",{style:"currency",currency:"BRL"});function lt(e){return e==null?"—":os.format(e/100)}function Gt(e){return e==null?"—":os.format(Number(e))}function cr(e){return e==null?"—":`${e>0?"+":""}${lt(e)}`}function Qn(e){return e==null||Number.isNaN(e)?"—":`${(e*100).toFixed(1)} %`}function ae(e){if(!e)return"—";let t=new Date(e);return Number.isNaN(t.getTime())?e:t.toLocaleString()}var Ae=["policy","provider","economics"];function ls(){let e=de(()=>jt("/stores",{},r=>r.code),[]),[t,o]=F(""),[n,l]=F("");return f`<h1>Stores</h1>
    <form class="filters" role="search" aria-label="Filter stores" onSubmit=${r=>r.preventDefault()}>
      <label>Find a store <input type="search" value=${t} onInput=${r=>o(r.target.value)} placeholder="code, name or merchant" /></label>
      <label>Mode
        <select value=${n} onChange=${r=>l(r.target.value)}>
          <option value="">any</option><option value="SHADOW">SHADOW</option><option value="LIVE">LIVE</option>
        </select>
      </label>
    </form>
    <${pe} state=${e} what="the stores">${r=>{let a=t.trim().toLowerCase(),c=r.filter(u=>(!n||u.mode===n)&&(!a||[u.code,u.name,u.merchant].some(m=>String(m).toLowerCase().includes(a))));return f`<div class="scroll"><table>
        <caption>${c.length} of ${r.length} stores</caption>
        <thead><tr><th scope="col">Store</th><th scope="col">Name</th><th scope="col">Merchant</th><th scope="col">Mode</th>
          ${Ae.map(u=>f`<th scope="col">${u}</th>`)}</tr></thead>
        <tbody>${c.map(u=>f`<tr>
            <th scope="row"><a href=${`#/stores/${encodeURIComponent(u.code)}`}>${u.code}</a></th>
            <td>${u.name}</td><td>${u.merchant}</td><td><span class=${`badge ${u.mode}`}>${u.mode}</span></td>
            ${Ae.map(m=>f`<td><${Ie} value=${u.components?.[m]} /></td>`)}
          </tr>`)}</tbody>
      </table></div>`}}<//>`}async function Bc(e){let t=`/stores/${encodeURIComponent(e)}`,[o,n,...l]=await Promise.all([oe(t),oe(`${t}/components`),...Ae.map(r=>oe(`/components/${r}`))]);return{store:o,components:n,versions:Object.fromEntries(Ae.map((r,a)=>[r,l[a]]))}}function rs({code:e,me:t}){let o=de(()=>Bc(e),[e]),n=Ne(),[l,r]=F(null),a=`/stores/${encodeURIComponent(e)}`;async function c(){let u=l;r(null),await n.run(u.run)!==void 0&&o.reload()}return f`<h1>Store <code>${e}</code></h1>
    <p><a href="#/stores">All stores</a>${Pe(t,"tester")?f` · <a href=${`#/evaluate/${encodeURIComponent(e)}`}>Evaluate a charge on this store</a>`:null}</p>
    <${$e} error=${n.error} />
    ${n.busy?f`<p role="status">Working…</p>`:null}
    <${pe} state=${o} what="the store">${({store:u,components:m,versions:$})=>f`
      <section aria-labelledby="store-facts">
        <h2 id="store-facts">Facts</h2>
        <dl class="facts">
          <dt>Name</dt><dd>${u.name}</dd>
          <dt>Merchant</dt><dd>${u.merchant}</dd>
          <dt>Mode</dt><dd><span class=${`badge ${u.mode}`}>${u.mode}</span></dd>
          <dt>Gateways</dt><dd>${u.gateways?.length?u.gateways.join(", "):"every active gateway"}</dd>
          <dt>Kill switch</dt><dd>${jc(m.killSwitch)}</dd>
        </dl>
      </section>
      <section aria-labelledby="store-steps">
        <h2 id="store-steps">Components per step</h2>
        <div class="steps">
          ${Ae.map(p=>f`<${Gc}
            key=${p} step=${p} view=${m.steps[p]} versions=${$[p]} me=${t}
            onActivate=${g=>r({title:`Activate ${p} ${g==="bundled"?"bundled":g.slice(0,12)}?`,body:`Every new charge of ${e} will run this ${p} version. Charges in flight finish on the version they started with.`,label:"Activate",run:()=>xo(`${a}/components/${p}`,{version:g})})}
            onRollback=${()=>r({title:`Roll back ${p}?`,body:`The ${p} step of ${e} goes back to ${m.steps[p].previous}.`,label:"Roll back",run:()=>Bt(`${a}/components/${p}/rollback`)})}
            onCanary=${g=>n.run(()=>xo(`${a}/components/${p}/canary`,g)).then(_=>_!==void 0&&o.reload())}
            onPromote=${()=>r({title:`Promote the ${p} canary?`,body:`Every new charge of ${e} will run ${m.steps[p].canary.version.slice(0,12)} for ${p}; the canary ends.`,label:"Promote",run:()=>Bt(`${a}/components/${p}/canary/promote`)})}
            onEndCanary=${()=>n.run(()=>Co(`${a}/components/${p}/canary`)).then(g=>g!==void 0&&o.reload())}
            store=${e}
            onCandidate=${g=>n.run(()=>g?xo(`${a}/components/${p}/candidate`,{version:g}):Co(`${a}/components/${p}/candidate`)).then(_=>_!==void 0&&o.reload())}
          />`)}
        </div>
      </section>
      ${Pe(t,"operator")?f`<${qc} value=${m.killSwitch} onSave=${p=>n.run(()=>xo(`${a}/kill-switch`,p)).then(g=>g!==void 0&&o.reload())} />`:null}
      <section aria-labelledby="store-history">
        <h2 id="store-history">Activation history</h2>
        ${m.history.length===0?f`<p class="muted">Nothing was activated on this store yet.</p>`:f`<div class="scroll"><table>
              <thead><tr><th scope="col">When</th><th scope="col">Step</th><th scope="col">Action</th><th scope="col">Version</th><th scope="col">Before</th><th scope="col">Why</th></tr></thead>
              <tbody>${m.history.map(p=>f`<tr>
                <td>${ae(p.at)}</td><td>${p.step}</td><td>${p.action}</td>
                <td><${Ie} value=${p.version} /></td><td><${Ie} value=${p.previousVersion} /></td><td>${p.reason??""}</td>
              </tr>`)}</tbody>
            </table></div>`}
      </section>`}<//>
    <${un} open=${!!l} title=${l?.title} confirmLabel=${l?.label??"Confirm"}
      onConfirm=${c} onCancel=${()=>r(null)}>${l?.body}<//>`}function jc(e){return e?e.enabled?`armed: rolls back at ${e.errorRatePercent} % failed calls over ${e.windowSeconds} s (at least ${e.minCalls} calls)`:"off":"unknown"}function Gc({step:e,view:t,versions:o,me:n,store:l,onActivate:r,onRollback:a,onCandidate:c,onCanary:u,onPromote:m,onEndCanary:$}){let p=["bundled",...o.map(E=>E.version)],g=Object.fromEntries(o.map(E=>[E.version,E.source])),_=E=>E==="bundled"?"bundled":`${E.slice(0,12)} (${g[E]})`,[S,x]=F(p.find(E=>E!==t.active)??t.active),[y,D]=F(p.find(E=>E!==t.active)??""),w=`step-${e}`;return f`<article class="card" aria-labelledby=${w}>
    <h3 id=${w}>${e}</h3>
    <dl class="facts">
      <dt>Active</dt><dd><${Ie} value=${t.active} /></dd>
      <dt>Since</dt><dd>${ae(t.activatedAt)}</dd>
      <dt>Previous</dt><dd><${Ie} value=${t.previous} /></dd>
      <dt>Candidate</dt><dd><${Ie} value=${t.candidate} /></dd>
      <dt>Canary</dt><dd>${t.canary?f`<${Ie} value=${t.canary.version} /> on ${t.canary.percent} % of charges`:f`<span class="muted">none</span>`}</dd>
    </dl>
    ${t.canary?f`<${Yc} store=${l} step=${e} />`:null}
    ${Pe(n,"operator")?f`<div class="row">
      <label>Version to activate
        <select value=${S} onChange=${E=>x(E.target.value)}>
          ${p.map(E=>f`<option value=${E}>${_(E)}${E===t.active?", active":""}</option>`)}
        </select>
      </label>
      <button type="button" class="primary" disabled=${S===t.active} onClick=${()=>r(S)}>Activate ${e}</button>
      ${t.previous?f`<button type="button" onClick=${a}>Roll back ${e}</button>`:null}
    </div>`:null}
    ${Pe(n,"tester")?f`<div class="row">
      ${t.candidate?f`<button type="button" onClick=${()=>c(null)}>Clear ${e} candidate</button>
            <a href=${`#/shadow/${encodeURIComponent(l)}/${e}`}>See the comparison</a>`:f`<label>Shadow candidate
            <select value=${y} onChange=${E=>D(E.target.value)}>
              ${p.map(E=>f`<option value=${E}>${_(E)}</option>`)}
            </select>
          </label>
          <button type="button" onClick=${()=>c(y)}>Set ${e} candidate</button>`}
    </div>`:null}
    ${Pe(n,"operator")?t.canary?f`<div class="row">
          <button type="button" class="primary" onClick=${m}>Promote ${e} canary</button>
          <button type="button" onClick=${$}>End ${e} canary</button>
        </div>`:f`<${Kc} step=${e} choices=${p.filter(E=>E!==t.active)} label=${_} onStart=${u} />`:null}
  </article>`}function Kc({step:e,choices:t,label:o,onStart:n}){let[l,r]=F(t[0]??""),[a,c]=F(5);return t.length===0?null:f`<form class="row" aria-label=${`Start a ${e} canary`} onSubmit=${u=>{u.preventDefault(),n({version:l,percent:Number(a)})}}>
    <label>Canary version
      <select value=${l} onChange=${u=>r(u.target.value)}>
        ${t.map(u=>f`<option value=${u}>${o(u)}</option>`)}
      </select>
    </label>
    <label>Share (%) <input type="number" min="0.1" max="100" step="0.1" value=${a} onInput=${u=>c(u.target.value)} /></label>
    <button type="submit">Start ${e} canary</button>
  </form>`}function Yc({store:e,step:t}){let o=de(()=>oe(`/stores/${encodeURIComponent(e)}/components/${t}/canary`),[e,t]);return f`<${pe} state=${o} what="the canary">${n=>f`
    <dl class="facts" aria-label=${`${t} canary figures`}>
      <dt>Share so far</dt><dd>${n.sharePercent} % (${n.total.calls} calls)</dd>
      <dt>Errors</dt><dd>${n.total.errors} (${n.total.errorRatePercent} %; ends at ${n.maxErrorRatePercent} % over ${n.windowSeconds} s)</dd>
      <dt>Changed</dt><dd>${n.total.changed} (${n.total.changedRatePercent} %${n.maxChangedRatePercent?`; ends at ${n.maxChangedRatePercent} %`:""})</dd>
    </dl>`}<//>`}function qc({value:e,onSave:t}){let[o,n]=F({...e}),l=r=>a=>n({...o,[r]:a.target.type==="checkbox"?a.target.checked:Number(a.target.value)});return f`<section aria-labelledby="kill-switch">
    <h2 id="kill-switch">Kill switch</h2>
    <form class="row" onSubmit=${r=>{r.preventDefault(),t({enabled:o.enabled,errorRatePercent:o.errorRatePercent,windowSeconds:o.windowSeconds,minCalls:o.minCalls})}}>
      <label><input type="checkbox" checked=${o.enabled} onChange=${l("enabled")} /> Armed</label>
      <label>Error rate (%) <input type="number" min="1" max="100" value=${o.errorRatePercent} onInput=${l("errorRatePercent")} /></label>
      <label>Window (s) <input type="number" min="10" max="86400" value=${o.windowSeconds} onInput=${l("windowSeconds")} /></label>
      <label>Minimum calls <input type="number" min="1" max="1000000" value=${o.minCalls} onInput=${l("minCalls")} /></label>
      <button type="submit">Save the kill switch</button>
    </form>
  </section>`}function as({me:e}){let t=de(async()=>{let r=await Promise.all(Ae.map(a=>oe(`/components/${a}`)));return Object.fromEntries(Ae.map((a,c)=>[a,r[c]]))},[]),o=Ne(),[n,l]=F(null);return f`<h1>Components</h1>
    ${Pe(e,"operator")?f`<${Jc} onUploaded=${t.reload} />`:null}
    <${$e} error=${o.error} />
    <${pe} state=${t} what="the components">${r=>Ae.map(a=>f`
      <section aria-labelledby=${`versions-${a}`}>
        <h2 id=${`versions-${a}`}>${a}</h2>
        <div class="scroll"><table>
          <thead><tr><th scope="col">Version</th><th scope="col">Label</th><th scope="col">Source</th><th scope="col">Size</th><th scope="col">Uploaded</th><th scope="col">In use</th>
            ${Pe(e,"operator")?f`<th scope="col"><span class="visually-hidden">Actions</span></th>`:null}</tr></thead>
          <tbody>${r[a].map(c=>f`<tr>
            <th scope="row"><${Ie} value=${c.version} /></th>
            <td>${c.label??f`<span class="muted">none</span>`}</td>
            <td>${c.source}</td>
            <td>${(c.sizeBytes/1024).toFixed(1)} KiB</td>
            <td>${ae(c.createdAt)}</td>
            <td>${c.inUse.length?c.inUse.map(u=>`${u.store} (${u.role})`).join(", "):f`<span class="muted">no store</span>`}</td>
            ${Pe(e,"operator")?f`<td>${c.source!=="bundled"&&c.inUse.length===0?f`<button type="button" onClick=${()=>l(c)} aria-label=${`Delete ${a} version ${c.version.slice(0,12)}`}>Delete</button>`:null}</td>`:null}
          </tr>`)}</tbody>
        </table></div>
      </section>`)}<//>
    <${un} open=${!!n} title="Delete this version?" confirmLabel="Delete"
      onCancel=${()=>l(null)}
      onConfirm=${async()=>{let r=n;l(null),await o.run(()=>Co(`/components/${r.step}/${r.version}`))!==void 0&&t.reload()}}>${n?f`The ${n.step} version <code>${n.version}</code> will be gone for good.`:null}<//>`}function Jc({onUploaded:e}){let t=Wt(null),[o,n]=F("provider"),[l,r]=F(""),a=Ne();function c(){let m=t.current.files[0];m&&!l&&r(m.name.replace(/\.wasm$/i,""))}async function u(m){m.preventDefault();let $=t.current.files[0];if(!$)return;let p=l?`?label=${encodeURIComponent(l)}`:"";await a.run(()=>Qt("POST",`/components/${o}${p}`,{body:$,contentType:"application/wasm"}))&&(t.current.value="",r(""),e())}return f`<section aria-labelledby="upload-title">
    <h2 id="upload-title">Upload a component</h2>
    <form class="row" onSubmit=${u}>
      <label>Step
        <select value=${o} onChange=${m=>n(m.target.value)}>
          ${Ae.map(m=>f`<option value=${m}>${m}</option>`)}
        </select>
      </label>
      <label>Component file (.wasm) <input type="file" ref=${t} onChange=${c} accept=".wasm,application/wasm" required /></label>
      <label>Label <input value=${l} onInput=${m=>r(m.target.value)} maxLength="100" placeholder="the file's name" /></label>
      <button type="submit" class="primary" disabled=${a.busy}>Upload</button>
    </form>
    <${$e} error=${a.error} />
    ${a.result?f`<p role="status">Uploaded ${a.result.step} version <code>${a.result.version}</code>${a.result.label?` (${a.result.label})`:""}.</p>`:null}
  </section>`}var Qc="uplot",Zc="u-hz",Xc="u-vt",eu="u-title",tu="u-wrap",nu="u-under",ou="u-over",lu="u-axis",En="u-off",ru="u-select",au="u-cursor-x",su="u-cursor-y",iu="u-cursor-pt",cu="u-legend",uu="u-live",du="u-inline",fu="u-series",pu="u-marker",ss="u-label",hu="u-value",Ao="width",To="height";var is="bottom",Zn="left",ur="right",Er="#000",cs=Er+"0",dr="mousemove",us="mousedown",fr="mouseup",ds="mouseenter",fs="mouseleave",ps="dblclick",mu="resize",$u="scroll",hs="change",al="dppxchange",Ar="--",ro=typeof window<"u",gr=ro?document:null,eo=ro?window:null,gu=ro?navigator:null,ce,nl;function _r(){let e=devicePixelRatio;ce!=e&&(ce=e,nl&&vr(hs,nl,_r),nl=matchMedia(`(min-resolution: ${ce-.001}dppx) and (max-resolution: ${ce+.001}dppx)`),An(hs,nl,_r),eo.dispatchEvent(new CustomEvent(al)))}function mt(e,t){if(t!=null){let o=e.classList;!o.contains(t)&&o.add(t)}}function br(e,t){let o=e.classList;o.contains(t)&&o.remove(t)}function ke(e,t,o){e.style[t]=o+"px"}function Lt(e,t,o,n){let l=gr.createElement(e);return t!=null&&mt(l,t),o?.insertBefore(l,n),l}function kt(e,t){return Lt("div",e,t)}var ms=new WeakMap;function Kt(e,t,o,n,l){let r="translate("+t+"px,"+o+"px)",a=ms.get(e);r!=a&&(e.style.transform=r,ms.set(e,r),t<0||o<0||t>n||o>l?mt(e,En):br(e,En))}var $s=new WeakMap;function gs(e,t,o){let n=t+o,l=$s.get(e);n!=l&&($s.set(e,n),e.style.background=t,e.style.borderColor=o)}var _s=new WeakMap;function bs(e,t,o,n){let l=t+""+o,r=_s.get(e);l!=r&&(_s.set(e,l),e.style.height=o+"px",e.style.width=t+"px",e.style.marginLeft=n?-t/2+"px":0,e.style.marginTop=n?-o/2+"px":0)}var Tr={passive:!0},_u={...Tr,capture:!0};function An(e,t,o,n){t.addEventListener(e,o,n?_u:Tr)}function vr(e,t,o,n){t.removeEventListener(e,o,Tr)}ro&&_r();function It(e,t,o,n){let l;o=o||0,n=n||t.length-1;let r=n<=2147483647;for(;n-o>1;)l=r?o+n>>1:$t((o+n)/2),t[l]<e?o=l:n=l;return e-t[o]<=t[n]-e?o:n}function Ks(e){return(o,n,l)=>{let r=-1,a=-1;for(let c=n;c<=l;c++)if(e(o[c])){r=c;break}for(let c=l;c>=n;c--)if(e(o[c])){a=c;break}return[r,a]}}var Ys=e=>e!=null,qs=e=>e!=null&&e>0,cl=Ks(Ys),bu=Ks(qs);function vu(e,t,o,n=0,l=!1){let r=l?bu:cl,a=l?qs:Ys;[t,o]=r(e,t,o);let c=e[t],u=e[t];if(t>-1)if(n==1)c=e[t],u=e[o];else if(n==-1)c=e[o],u=e[t];else for(let m=t;m<=o;m++){let $=e[m];a($)&&($<c?c=$:$>u&&(u=$))}return[c??ge,u??-ge]}function ul(e,t,o,n){let l=ws(e),r=ws(t);e==t&&(l==-1?(e*=o,t/=o):(e/=o,t*=o));let a=o==10?Zt:Js,c=l==1?$t:xt,u=r==1?xt:$t,m=c(a(He(e))),$=u(a(He(t))),p=to(o,m),g=to(o,$);return o==10&&(m<0&&(p=_e(p,-m)),$<0&&(g=_e(g,-$))),n||o==2?(e=p*l,t=g*r):(e=ei(e,p),t=dl(t,g)),[e,t]}function Pr(e,t,o,n){let l=ul(e,t,o,n);return e==0&&(l[0]=0),t==0&&(l[1]=0),l}var Dr=.1,vs={mode:3,pad:Dr},Do={pad:0,soft:null,mode:0},yu={min:Do,max:Do};function sl(e,t,o,n){return fl(o)?ys(e,t,o):(Do.pad=o,Do.soft=n?0:null,Do.mode=n?3:0,ys(e,t,yu))}function se(e,t){return e??t}function wu(e,t,o){for(t=se(t,0),o=se(o,e.length-1);t<=o;){if(e[t]!=null)return!0;t++}return!1}function ys(e,t,o){let n=o.min,l=o.max,r=se(n.pad,0),a=se(l.pad,0),c=se(n.hard,-ge),u=se(l.hard,ge),m=se(n.soft,ge),$=se(l.soft,-ge),p=se(n.mode,0),g=se(l.mode,0),_=t-e,S=Zt(_),x=rt(He(e),He(t)),y=Zt(x),D=He(y-S);(_<1e-24||D>10)&&(_=0,(e==0||t==0)&&(_=1e-24,p==2&&m!=ge&&(r=0),g==2&&$!=-ge&&(a=0)));let w=_||x||1e3,E=Zt(w),C=to(10,$t(E)),q=w*(_==0?e==0?.1:1:r),N=_e(ei(e-q,C/10),24),J=e>=m&&(p==1||p==3&&N<=m||p==2&&N>=m)?m:ge,B=rt(c,N<J&&e>=J?J:Mt(J,N)),Z=w*(_==0?t==0?.1:1:a),W=_e(dl(t+Z,C/10),24),P=t<=$&&(g==1||g==3&&W>=$||g==2&&W<=$)?$:-ge,j=Mt(u,W>P&&t<=P?P:rt(P,W));return B==j&&B==0&&(j=100),[B,j]}var Su=new Intl.NumberFormat(ro?gu.language:"en-US"),Lr=e=>Su.format(e),gt=Math,rl=gt.PI,He=gt.abs,$t=gt.floor,Ue=gt.round,xt=gt.ceil,Mt=gt.min,rt=gt.max,to=gt.pow,ws=gt.sign,Zt=gt.log10,Js=gt.log2,ku=(e,t=1)=>gt.sinh(e)*t,pr=(e,t=1)=>gt.asinh(e/t),ge=1/0;function Ss(e){return(Zt((e^e>>31)-(e>>31))|0)+1}function yr(e,t,o){return Mt(rt(e,t),o)}function Qs(e){return typeof e=="function"}function te(e){return Qs(e)?e:()=>e}var xu=()=>{},Zs=e=>e,Xs=(e,t)=>t,Cu=e=>null,ks=e=>!0,xs=(e,t)=>e==t,Eu=/\.\d*?(?=9{6,}|0{6,})/gm,Tn=e=>{if(ni(e)||fn.has(e))return e;let t=`${e}`,o=t.match(Eu);if(o==null)return e;let n=o[0].length-1;if(t.indexOf("e-")!=-1){let[l,r]=t.split("e");return+`${Tn(l)}e${r}`}return _e(e,n)};function xn(e,t){return Tn(_e(Tn(e/t))*t)}function dl(e,t){return Tn(xt(Tn(e/t))*t)}function ei(e,t){return Tn($t(Tn(e/t))*t)}function _e(e,t=0){if(ni(e))return e;let o=10**t,n=e*o*(1+Number.EPSILON);return Ue(n)/o}var fn=new Map;function ti(e){return((""+e).split(".")[1]||"").length}function Io(e,t,o,n){let l=[],r=n.map(ti);for(let a=t;a<o;a++){let c=He(a),u=_e(to(e,a),c);for(let m=0;m<n.length;m++){let $=e==10?+`${n[m]}e${a}`:n[m]*u,p=(a>=0?0:c)+(a>=r[m]?0:r[m]),g=e==10?$:_e($,p);l.push(g),fn.set(g,p)}}return l}var Lo={},Ir=[],no=[null,null],dn=Array.isArray,ni=Number.isInteger,Au=e=>e===void 0;function Cs(e){return typeof e=="string"}function fl(e){let t=!1;if(e!=null){let o=e.constructor;t=o==null||o==Object}return t}function Tu(e){return e!=null&&typeof e=="object"}var Pu=Object.getPrototypeOf(Uint8Array),oi="__proto__";function oo(e,t=fl){let o;if(dn(e)){let n=e.find(l=>l!=null);if(dn(n)||t(n)){o=Array(e.length);for(let l=0;l<e.length;l++)o[l]=oo(e[l],t)}else o=e.slice()}else if(e instanceof Pu)o=e.slice();else if(t(e)){o={};for(let n in e)n!=oi&&(o[n]=oo(e[n],t))}else o=e;return o}function Oe(e){let t=arguments;for(let o=1;o<t.length;o++){let n=t[o];for(let l in n)l!=oi&&(fl(e[l])?Oe(e[l],oo(n[l])):e[l]=oo(n[l]))}return e}var Du=0,Lu=1,Iu=2;function Mu(e,t,o){for(let n=0,l,r=-1;n<t.length;n++){let a=t[n];if(a>r){for(l=a-1;l>=0&&e[l]==null;)e[l--]=null;for(l=a+1;l<o&&e[l]==null;)e[r=l++]=null}}}function Ru(e,t){if(Fu(e)){let a=e[0].slice();for(let c=1;c<e.length;c++)a.push(...e[c].slice(1));return Vu(a[0])||(a=Ou(a)),a}let o=new Set;for(let a=0;a<e.length;a++){let u=e[a][0],m=u.length;for(let $=0;$<m;$++)o.add(u[$])}let n=[Array.from(o).sort((a,c)=>a-c)],l=n[0].length,r=new Map;for(let a=0;a<l;a++)r.set(n[0][a],a);for(let a=0;a<e.length;a++){let c=e[a],u=c[0];for(let m=1;m<c.length;m++){let $=c[m],p=Array(l).fill(void 0),g=t?t[a][m]:Lu,_=[];for(let S=0;S<$.length;S++){let x=$[S],y=r.get(u[S]);x===null?g!=Du&&(p[y]=x,g==Iu&&_.push(y)):p[y]=x}Mu(p,_,l),n.push(p)}}return n}var Nu=typeof queueMicrotask>"u"?e=>Promise.resolve().then(e):queueMicrotask;function Ou(e){let t=e[0],o=t.length,n=Array(o);for(let r=0;r<n.length;r++)n[r]=r;n.sort((r,a)=>t[r]-t[a]);let l=[];for(let r=0;r<e.length;r++){let a=e[r],c=Array(o);for(let u=0;u<o;u++)c[u]=a[n[u]];l.push(c)}return l}function Fu(e){let t=e[0][0],o=t.length;for(let n=1;n<e.length;n++){let l=e[n][0];if(l.length!=o)return!1;if(l!=t){for(let r=0;r<o;r++)if(l[r]!=t[r])return!1}}return!0}function Vu(e,t=100){let o=e.length;if(o<=1)return!0;let n=0,l=o-1;for(;n<=l&&e[n]==null;)n++;for(;l>=n&&e[l]==null;)l--;if(l<=n)return!0;let r=rt(1,$t((l-n+1)/t));for(let a=e[n],c=n+r;c<=l;c+=r){let u=e[c];if(u!=null){if(u<=a)return!1;a=u}}return!0}var li=["January","February","March","April","May","June","July","August","September","October","November","December"],ri=["Sunday","Monday","Tuesday","Wednesday","Thursday","Friday","Saturday"];function ai(e){return e.slice(0,3)}var zu=ri.map(ai),Uu=li.map(ai),Hu={MMMM:li,MMM:Uu,WWWW:ri,WWW:zu};function Eo(e){return(e<10?"0":"")+e}function Wu(e){return(e<10?"00":e<100?"0":"")+e}var Bu={YYYY:e=>e.getFullYear(),YY:e=>(e.getFullYear()+"").slice(2),MMMM:(e,t)=>t.MMMM[e.getMonth()],MMM:(e,t)=>t.MMM[e.getMonth()],MM:e=>Eo(e.getMonth()+1),M:e=>e.getMonth()+1,DD:e=>Eo(e.getDate()),D:e=>e.getDate(),WWWW:(e,t)=>t.WWWW[e.getDay()],WWW:(e,t)=>t.WWW[e.getDay()],HH:e=>Eo(e.getHours()),H:e=>e.getHours(),h:e=>{let t=e.getHours();return t==0?12:t>12?t-12:t},AA:e=>e.getHours()>=12?"PM":"AM",aa:e=>e.getHours()>=12?"pm":"am",a:e=>e.getHours()>=12?"p":"a",mm:e=>Eo(e.getMinutes()),m:e=>e.getMinutes(),ss:e=>Eo(e.getSeconds()),s:e=>e.getSeconds(),fff:e=>Wu(e.getMilliseconds())};function Mr(e,t){t=t||Hu;let o=[],n=/\{([a-z]+)\}|[^{]+/gi,l;for(;l=n.exec(e);)o.push(l[0][0]=="{"?Bu[l[1]]:l[0]);return r=>{let a="";for(let c=0;c<o.length;c++)a+=typeof o[c]=="string"?o[c]:o[c](r,t);return a}}var ju=new Intl.DateTimeFormat().resolvedOptions().timeZone;function Gu(e,t){let o;return t=="UTC"||t=="Etc/UTC"?o=new Date(+e+e.getTimezoneOffset()*6e4):t==ju?o=e:(o=new Date(e.toLocaleString("en-US",{timeZone:t})),o.setMilliseconds(e.getMilliseconds())),o}var si=e=>e%1==0,il=[1,2,2.5,5],Ku=Io(10,-32,0,il),ii=Io(10,0,32,il),Yu=ii.filter(si),Cn=Ku.concat(ii),Rr=`
`,ci="{YYYY}",Es=Rr+ci,ui="{M}/{D}",Po=Rr+ui,ol=Po+"/{YY}",di="{aa}",qu="{h}:{mm}",Xn=qu+di,As=Rr+Xn,Ts=":{ss}",fe=null;function fi(e){let t=e*1e3,o=t*60,n=o*60,l=n*24,r=l*30,a=l*365,u=(e==1?Io(10,0,3,il).filter(si):Io(10,-3,0,il)).concat([t,t*5,t*10,t*15,t*30,o,o*5,o*10,o*15,o*30,n,n*2,n*3,n*4,n*6,n*8,n*12,l,l*2,l*3,l*4,l*5,l*6,l*7,l*8,l*9,l*10,l*15,r,r*2,r*3,r*4,r*6,a,a*2,a*5,a*10,a*25,a*50,a*100]),m=[[a,ci,fe,fe,fe,fe,fe,fe,1],[l*28,"{MMM}",Es,fe,fe,fe,fe,fe,1],[l,ui,Es,fe,fe,fe,fe,fe,1],[n,"{h}"+di,ol,fe,Po,fe,fe,fe,1],[o,Xn,ol,fe,Po,fe,fe,fe,1],[t,Ts,ol+" "+Xn,fe,Po+" "+Xn,fe,As,fe,1],[e,Ts+".{fff}",ol+" "+Xn,fe,Po+" "+Xn,fe,As,fe,1]];function $(p){return(g,_,S,x,y,D)=>{let w=[],E=y>=a,C=y>=r&&y<a,q=p(S),N=_e(q*e,3),J=hr(q.getFullYear(),E?0:q.getMonth(),C||E?1:q.getDate()),B=_e(J*e,3);if(C||E){let Z=C?y/r:0,W=E?y/a:0,P=N==B?N:_e(hr(J.getFullYear()+W,J.getMonth()+Z,1)*e,3),j=new Date(Ue(P/e)),I=j.getFullYear(),K=j.getMonth();for(let H=0;P<=x;H++){let ne=hr(I+W*H,K+Z*H,1),U=ne-p(_e(ne*e,3));P=_e((+ne+U)*e,3),P<=x&&w.push(P)}}else{let Z=y>=l?l:y,W=$t(S)-$t(N),P=B+W+dl(N-B,Z);w.push(P);let j=p(P),I=j.getHours()+j.getMinutes()/o+j.getSeconds()/n,K=y/n,H=g.axes[_]._space,ne=D/H;for(;P=_e(P+y,e==1?0:3),!(P>x);)if(K>1){let U=$t(_e(I+K,6))%24,le=p(P).getHours()-U;le>1&&(le=-1),P-=le*n,I=(I+K)%24;let he=w[w.length-1];_e((P-he)/y,3)*ne>=.7&&w.push(P)}else w.push(P)}return w}}return[u,m,$]}var[Ju,Qu,Zu]=fi(1),[Xu,ed,td]=fi(.001);Io(2,-53,53,[1]);function Ps(e,t){return e.map(o=>o.map((n,l)=>l==0||l==8||n==null?n:t(l==1||o[8]==0?n:o[1]+n)))}function Ds(e,t){return(o,n,l,r,a)=>{let c=t.find(S=>a>=S[0])||t[t.length-1],u,m,$,p,g,_;return n.map(S=>{let x=e(S),y=x.getFullYear(),D=x.getMonth(),w=x.getDate(),E=x.getHours(),C=x.getMinutes(),q=x.getSeconds(),N=y!=u&&c[2]||D!=m&&c[3]||w!=$&&c[4]||E!=p&&c[5]||C!=g&&c[6]||q!=_&&c[7]||c[1];return u=y,m=D,$=w,p=E,g=C,_=q,N(x)})}}function nd(e,t){let o=Mr(t);return(n,l,r,a,c)=>l.map(u=>o(e(u)))}function hr(e,t,o){return new Date(e,t,o)}function Ls(e,t){return t(e)}var od="{YYYY}-{MM}-{DD} {h}:{mm}{aa}";function Is(e,t){return(o,n,l,r)=>r==null?Ar:t(e(n))}function ld(e,t){let o=e.series[t];return o.width?o.stroke(e,t):o.points.width?o.points.stroke(e,t):null}function rd(e,t){return e.series[t].fill(e,t)}var ad={show:!0,live:!0,isolate:!1,mount:xu,markers:{show:!0,width:2,stroke:ld,fill:rd,dash:"solid"},idx:null,idxs:null,values:[]};function sd(e,t){let o=e.cursor.points,n=kt(),l=o.size(e,t);ke(n,Ao,l),ke(n,To,l);let r=l/-2;ke(n,"marginLeft",r),ke(n,"marginTop",r);let a=o.width(e,t,l);return a&&ke(n,"borderWidth",a),n}function id(e,t){let o=e.series[t].points;return o._fill||o._stroke}function cd(e,t){let o=e.series[t].points;return o._stroke||o._fill}function ud(e,t){return e.series[t].points.size}var mr=[0,0];function dd(e,t,o){return mr[0]=t,mr[1]=o,mr}function ll(e,t,o,n=!0){return l=>{l.button==0&&(!n||l.target==t)&&o(l)}}function $r(e,t,o,n=!0){return l=>{(!n||l.target==t)&&o(l)}}var fd={show:!0,x:!0,y:!0,lock:!1,move:dd,points:{one:!1,show:sd,size:ud,width:0,stroke:cd,fill:id},bind:{mousedown:ll,mouseup:ll,click:ll,dblclick:ll,mousemove:$r,mouseleave:$r,mouseenter:$r},drag:{setScale:!0,x:!0,y:!1,dist:0,uni:null,click:(e,t)=>{t.stopPropagation(),t.stopImmediatePropagation()},_x:!1,_y:!1},focus:{dist:(e,t,o,n,l)=>n-l,prox:-1,bias:0},hover:{skip:[void 0],prox:null,bias:0},left:-10,top:-10,idx:null,dataIdx:null,idxs:null,event:null},pi={show:!0,stroke:"rgba(0,0,0,0.07)",width:2},Nr=Oe({},pi,{filter:Xs}),hi=Oe({},Nr,{size:10}),mi=Oe({},pi,{show:!1}),Or='12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif, "Apple Color Emoji", "Segoe UI Emoji", "Segoe UI Symbol", "Noto Color Emoji"',$i="bold "+Or,gi=1.5,Ms={show:!0,scale:"x",stroke:Er,space:50,gap:5,alignTo:1,size:50,labelGap:0,labelSize:30,labelFont:$i,side:2,grid:Nr,ticks:hi,border:mi,font:Or,lineGap:gi,rotate:0},pd="Value",hd="Time",Rs={show:!0,scale:"x",auto:!1,sorted:1,min:ge,max:-ge,idxs:[]};function md(e,t,o,n,l){return t.map(r=>r==null?"":Lr(r))}function $d(e,t,o,n,l,r,a){let c=[],u=fn.get(l)||0;o=a?o:_e(dl(o,l),u);for(let m=o;m<=n;m=_e(m+l,u))c.push(Object.is(m,-0)?0:m);return c}function wr(e,t,o,n,l,r,a){let c=[],u=e.scales[e.axes[t].scale].log,m=u==10?Zt:Js,$=$t(m(o));l=to(u,$),u==10&&(l=Cn[It(l,Cn)]);let p=o,g=l*u;u==10&&(g=Cn[It(g,Cn)]);do c.push(p),p=p+l,u==10&&!fn.has(p)&&(p=_e(p,fn.get(l))),p>=g&&(l=p,g=l*u,u==10&&(g=Cn[It(g,Cn)]));while(p<=n);return c}function gd(e,t,o,n,l,r,a){let u=e.scales[e.axes[t].scale].asinh,m=n>u?wr(e,t,rt(u,o),n,l):[u],$=n>=0&&o<=0?[0]:[];return(o<-u?wr(e,t,rt(u,-n),-o,l):[u]).reverse().map(g=>-g).concat($,m)}var _i=/./,_d=/[12357]/,bd=/[125]/,Ns=/1/,Sr=(e,t,o,n)=>e.map((l,r)=>t==4&&l==0||r%n==0&&o.test(l.toExponential()[l<0?1:0])?l:null);function vd(e,t,o,n,l){let r=e.axes[o],a=r.scale,c=e.scales[a],u=e.valToPos,m=r._space,$=u(10,a),p=u(9,a)-$>=m?_i:u(7,a)-$>=m?_d:u(5,a)-$>=m?bd:Ns;if(p==Ns){let g=He(u(1,a)-$);if(g<m)return Sr(t.slice().reverse(),c.distr,p,xt(m/g)).reverse()}return Sr(t,c.distr,p,1)}function yd(e,t,o,n,l){let r=e.axes[o],a=r.scale,c=r._space,u=e.valToPos,m=He(u(1,a)-u(2,a));return m<c?Sr(t.slice().reverse(),3,_i,xt(c/m)).reverse():t}function wd(e,t,o,n){return n==null?Ar:t==null?"":Lr(t)}var Os={show:!0,scale:"y",stroke:Er,space:30,gap:5,alignTo:1,size:50,labelGap:0,labelSize:30,labelFont:$i,side:3,grid:Nr,ticks:hi,border:mi,font:Or,lineGap:gi,rotate:0};function Sd(e,t){let o=3+(e||1)*2;return _e(o*t,3)}function kd(e,t){let{scale:o,idxs:n}=e.series[0],l=e._data[0],r=e.valToPos(l[n[0]],o,!0),a=e.valToPos(l[n[1]],o,!0),c=He(a-r),u=e.series[t],m=c/(u.points.space*ce);return n[1]-n[0]<=m}var Fs={scale:null,auto:!0,sorted:0,min:ge,max:-ge},bi=(e,t,o,n,l)=>l,Vs={show:!0,auto:!0,sorted:0,gaps:bi,alpha:1,facets:[Oe({},Fs,{scale:"x"}),Oe({},Fs,{scale:"y"})]},zs={scale:"y",auto:!0,sorted:0,show:!0,spanGaps:!1,gaps:bi,alpha:1,points:{show:kd,filter:null},values:null,min:ge,max:-ge,idxs:[],path:null,clip:null};function xd(e,t,o,n,l){return o/10}var vi={time:!0,auto:!0,distr:1,log:10,asinh:1,min:null,max:null,dir:1,ori:0},Cd=Oe({},vi,{time:!1,ori:1}),Us={};function yi(e,t){let o=Us[e];return o||(o={key:e,plots:[],sub(n){o.plots.push(n)},unsub(n){o.plots=o.plots.filter(l=>l!=n)},pub(n,l,r,a,c,u,m){for(let $=0;$<o.plots.length;$++)o.plots[$]!=l&&o.plots[$].pub(n,l,r,a,c,u,m)}},e!=null&&(Us[e]=o)),o}var lo=1,kr=2;function Pn(e,t,o){let n=e.mode,l=e.series[t],r=n==2?e._data[t]:e._data,a=e.scales,c=e.bbox,u=r[0],m=n==2?r[1]:r[t],$=n==2?a[l.facets[0].scale]:a[e.series[0].scale],p=n==2?a[l.facets[1].scale]:a[l.scale],g=c.left,_=c.top,S=c.width,x=c.height,y=e.valToPosH,D=e.valToPosV;return $.ori==0?o(l,u,m,$,p,y,D,g,_,S,x,hl,ao,$l,Si,xi):o(l,u,m,$,p,D,y,_,g,x,S,ml,so,zr,ki,Ci)}function Fr(e,t){let o=0,n=0,l=se(e.bands,Ir);for(let r=0;r<l.length;r++){let a=l[r];a.series[0]==t?o=a.dir:a.series[1]==t&&(a.dir==1?n|=1:n|=2)}return[o,n==1?-1:n==2?1:n==3?2:0]}function Ed(e,t,o,n,l){let r=e.mode,a=e.series[t],c=r==2?a.facets[1].scale:a.scale,u=e.scales[c];return l==-1?u.min:l==1?u.max:u.distr==3?u.dir==1?u.min:u.max:0}function Xt(e,t,o,n,l,r){return Pn(e,t,(a,c,u,m,$,p,g,_,S,x,y)=>{let D=a.pxRound,w=m.dir*(m.ori==0?1:-1),E=m.ori==0?ao:so,C,q;w==1?(C=o,q=n):(C=n,q=o);let N=D(p(c[C],m,x,_)),J=D(g(u[C],$,y,S)),B=D(p(c[q],m,x,_)),Z=D(g(r==1?$.max:$.min,$,y,S)),W=new Path2D(l);return E(W,B,Z),E(W,N,Z),E(W,N,J),W})}function pl(e,t,o,n,l,r){let a=null;if(e.length>0){a=new Path2D;let c=t==0?$l:zr,u=o;for(let p=0;p<e.length;p++){let g=e[p];if(g[1]>g[0]){let _=g[0]-u;_>0&&c(a,u,n,_,n+r),u=g[1]}}let m=o+l-u,$=10;m>0&&c(a,u,n-$/2,m,n+r+$)}return a}function Ad(e,t,o){let n=e[e.length-1];n&&n[0]==t?n[1]=o:e.push([t,o])}function Vr(e,t,o,n,l,r,a){let c=[],u=e.length;for(let m=l==1?o:n;m>=o&&m<=n;m+=l)if(t[m]===null){let p=m,g=m;if(l==1)for(;++m<=n&&t[m]===null;)g=m;else for(;--m>=o&&t[m]===null;)g=m;let _=r(e[p]),S=g==p?_:r(e[g]),x=p-l;_=a<=0&&x>=0&&x<u?r(e[x]):_;let D=g+l;S=a>=0&&D>=0&&D<u?r(e[D]):S,S>=_&&c.push([_,S])}return c}function Hs(e){return e==0?Zs:e==1?Ue:t=>xn(t,e)}function wi(e){let t=e==0?hl:ml,o=e==0?(l,r,a,c,u,m)=>{l.arcTo(r,a,c,u,m)}:(l,r,a,c,u,m)=>{l.arcTo(a,r,u,c,m)},n=e==0?(l,r,a,c,u)=>{l.rect(r,a,c,u)}:(l,r,a,c,u)=>{l.rect(a,r,u,c)};return(l,r,a,c,u,m=0,$=0)=>{m==0&&$==0?n(l,r,a,c,u):(m=Mt(m,c/2,u/2),$=Mt($,c/2,u/2),t(l,r+m,a),o(l,r+c,a,r+c,a+u,m),o(l,r+c,a+u,r,a+u,$),o(l,r,a+u,r,a,$),o(l,r,a,r+c,a,m),l.closePath())}}var hl=(e,t,o)=>{e.moveTo(t,o)},ml=(e,t,o)=>{e.moveTo(o,t)},ao=(e,t,o)=>{e.lineTo(t,o)},so=(e,t,o)=>{e.lineTo(o,t)},$l=wi(0),zr=wi(1),Si=(e,t,o,n,l,r)=>{e.arc(t,o,n,l,r)},ki=(e,t,o,n,l,r)=>{e.arc(o,t,n,l,r)},xi=(e,t,o,n,l,r,a)=>{e.bezierCurveTo(t,o,n,l,r,a)},Ci=(e,t,o,n,l,r,a)=>{e.bezierCurveTo(o,t,l,n,a,r)};function Ei(e){return(t,o,n,l,r)=>Pn(t,o,(a,c,u,m,$,p,g,_,S,x,y)=>{let{pxRound:D,points:w}=a,E,C;m.ori==0?(E=hl,C=Si):(E=ml,C=ki);let q=_e(w.width*ce,3),N=(w.size-w.width)/2*ce,J=_e(N*2,3),B=new Path2D,Z=new Path2D,{left:W,top:P,width:j,height:I}=t.bbox;$l(Z,W-J,P-J,j+J*2,I+J*2);let K=H=>{if(u[H]!=null){let ne=D(p(c[H],m,x,_)),U=D(g(u[H],$,y,S));E(B,ne+N,U),C(B,ne,U,N,0,rl*2)}};if(r)r.forEach(K);else for(let H=n;H<=l;H++)K(H);return{stroke:q>0?B:null,fill:B,clip:Z,flags:lo|kr}})}function Ai(e){return(t,o,n,l,r,a)=>{n!=l&&(r!=n&&a!=n&&e(t,o,n),r!=l&&a!=l&&e(t,o,l),e(t,o,a))}}var Td=Ai(ao),Pd=Ai(so);function Ti(e){let t=se(e?.alignGaps,0);return(o,n,l,r)=>Pn(o,n,(a,c,u,m,$,p,g,_,S,x,y)=>{[l,r]=cl(u,l,r);let D=a.pxRound,w=I=>D(p(I,m,x,_)),E=I=>D(g(I,$,y,S)),C,q;m.ori==0?(C=ao,q=Td):(C=so,q=Pd);let N=m.dir*(m.ori==0?1:-1),J={stroke:new Path2D,fill:null,clip:null,band:null,gaps:null,flags:lo},B=J.stroke,Z=!1;if(r-l>=x*4){let I=V=>o.posToVal(V,m.key,!0),K=null,H=null,ne,U,at,xe=w(c[N==1?l:r]),le=w(c[l]),he=w(c[r]),X=I(N==1?le+1:he-1);for(let V=N==1?l:r;V>=l&&V<=r;V+=N){let Fe=c[V],Ce=(N==1?Fe<X:Fe>X)?xe:w(Fe),ue=u[V];Ce==xe?ue!=null?(U=ue,K==null?(C(B,Ce,E(U)),ne=K=H=U):U<K?K=U:U>H&&(H=U)):ue===null&&(Z=!0):(K!=null&&q(B,xe,E(K),E(H),E(ne),E(U)),ue!=null?(U=ue,C(B,Ce,E(U)),K=H=ne=U):(K=H=null,ue===null&&(Z=!0)),xe=Ce,X=I(xe+N))}K!=null&&K!=H&&at!=xe&&q(B,xe,E(K),E(H),E(ne),E(U))}else for(let I=N==1?l:r;I>=l&&I<=r;I+=N){let K=u[I];K===null?Z=!0:K!=null&&C(B,w(c[I]),E(K))}let[P,j]=Fr(o,n);if(a.fill!=null||P!=0){let I=J.fill=new Path2D(B),K=a.fillTo(o,n,a.min,a.max,P),H=E(K),ne=w(c[l]),U=w(c[r]);N==-1&&([U,ne]=[ne,U]),C(I,U,H),C(I,ne,H)}if(!a.spanGaps){let I=[];Z&&I.push(...Vr(c,u,l,r,N,w,t)),J.gaps=I=a.gaps(o,n,l,r,I),J.clip=pl(I,m.ori,_,S,x,y)}return j!=0&&(J.band=j==2?[Xt(o,n,l,r,B,-1),Xt(o,n,l,r,B,1)]:Xt(o,n,l,r,B,j)),J})}function Dd(e){let t=se(e.align,1),o=se(e.ascDesc,!1),n=se(e.alignGaps,0),l=se(e.extend,!1);return(r,a,c,u)=>Pn(r,a,(m,$,p,g,_,S,x,y,D,w,E)=>{[c,u]=cl(p,c,u);let C=m.pxRound,{left:q,width:N}=r.bbox,J=le=>C(S(le,g,w,y)),B=le=>C(x(le,_,E,D)),Z=g.ori==0?ao:so,W={stroke:new Path2D,fill:null,clip:null,band:null,gaps:null,flags:lo},P=W.stroke,j=g.dir*(g.ori==0?1:-1),I=B(p[j==1?c:u]),K=J($[j==1?c:u]),H=K,ne=K;l&&t==-1&&(ne=q,Z(P,ne,I)),Z(P,K,I);for(let le=j==1?c:u;le>=c&&le<=u;le+=j){let he=p[le];if(he==null)continue;let X=J($[le]),V=B(he);t==1?Z(P,X,I):Z(P,H,V),Z(P,X,V),I=V,H=X}let U=H;l&&t==1&&(U=q+N,Z(P,U,I));let[at,xe]=Fr(r,a);if(m.fill!=null||at!=0){let le=W.fill=new Path2D(P),he=m.fillTo(r,a,m.min,m.max,at),X=B(he);Z(le,U,X),Z(le,ne,X)}if(!m.spanGaps){let le=[];le.push(...Vr($,p,c,u,j,J,n));let he=m.width*ce/2,X=o||t==1?he:-he,V=o||t==-1?-he:he;le.forEach(Fe=>{Fe[0]+=X,Fe[1]+=V}),W.gaps=le=m.gaps(r,a,c,u,le),W.clip=pl(le,g.ori,y,D,w,E)}return xe!=0&&(W.band=xe==2?[Xt(r,a,c,u,P,-1),Xt(r,a,c,u,P,1)]:Xt(r,a,c,u,P,xe)),W})}function Ws(e,t,o,n,l,r,a=ge){if(e.length>1){let c=null;for(let u=0,m=1/0;u<e.length;u++)if(t[u]!==void 0){if(c!=null){let $=He(e[u]-e[c]);$<m&&(m=$,a=He(o(e[u],n,l,r)-o(e[c],n,l,r)))}c=u}}return a}function Ld(e){e=e||Lo;let t=se(e.size,[.6,ge,1]),o=e.align||0,n=e.gap||0,l=e.radius;l=l==null?[0,0]:typeof l=="number"?[l,0]:l;let r=te(l),a=1-t[0],c=se(t[1],ge),u=se(t[2],1),m=se(e.disp,Lo),$=se(e.each,_=>{}),{fill:p,stroke:g}=m;return(_,S,x,y)=>Pn(_,S,(D,w,E,C,q,N,J,B,Z,W,P)=>{let j=D.pxRound,I=o,K=n*ce,H=c*ce,ne=u*ce,U,at;C.ori==0?[U,at]=r(_,S):[at,U]=r(_,S);let xe=C.dir*(C.ori==0?1:-1),le=C.ori==0?$l:zr,he=C.ori==0?$:(R,be,Ve,Rn,mn,Nt,$n)=>{$(R,be,Ve,mn,Rn,$n,Nt)},X=se(_.bands,Ir).find(R=>R.series[0]==S),V=X!=null?X.dir:0,Fe=D.fillTo(_,S,D.min,D.max,V),Xe=j(J(Fe,q,P,Z)),Ce,ue,Ct,ut=W,Te=j(D.width*ce),Rt=!1,Yt=null,_t=null,tn=null,Ln=null;p!=null&&(Te==0||g!=null)&&(Rt=!0,Yt=p.values(_,S,x,y),_t=new Map,new Set(Yt).forEach(R=>{R!=null&&_t.set(R,new Path2D)}),Te>0&&(tn=g.values(_,S,x,y),Ln=new Map,new Set(tn).forEach(R=>{R!=null&&Ln.set(R,new Path2D)})));let{x0:In,size:uo}=m;if(In!=null&&uo!=null){I=1,w=In.values(_,S,x,y),In.unit==2&&(w=w.map(Ve=>_.posToVal(B+Ve*W,C.key,!0)));let R=uo.values(_,S,x,y);uo.unit==2?ue=R[0]*W:ue=N(R[0],C,W,B)-N(0,C,W,B),ut=Ws(w,E,N,C,W,B,ut),Ct=ut-ue+K}else ut=Ws(w,E,N,C,W,B,ut),Ct=ut*a+K,ue=ut-Ct;Ct<1&&(Ct=0),Te>=ue/2&&(Te=0),Ct<5&&(j=Zs);let No=Ct>0,pn=ut-Ct-(No?Te:0);ue=j(yr(pn,ne,H)),Ce=(I==0?ue/2:I==xe?0:ue)-I*xe*((I==0?K/2:0)+(No?Te/2:0));let et={stroke:null,fill:null,clip:null,band:null,gaps:null,flags:0},Mn=Rt?null:new Path2D,qt=null;if(X!=null)qt=_.data[X.series[1]];else{let{y0:R,y1:be}=m;R!=null&&be!=null&&(E=be.values(_,S,x,y),qt=R.values(_,S,x,y))}let hn=U*ue,Q=at*ue;for(let R=xe==1?x:y;R>=x&&R<=y;R+=xe){let be=E[R];if(be==null)continue;if(qt!=null){let st=qt[R]??0;if(be-st==0)continue;Xe=J(st,q,P,Z)}let Ve=C.distr!=2||m!=null?w[R]:R,Rn=N(Ve,C,W,B),mn=J(se(be,Fe),q,P,Z),Nt=j(Rn-Ce),$n=j(rt(mn,Xe)),dt=j(Mt(mn,Xe)),bt=$n-dt;if(be!=null){let st=be<0?Q:hn,Et=be<0?hn:Q;Rt?(Te>0&&tn[R]!=null&&le(Ln.get(tn[R]),Nt,dt+$t(Te/2),ue,rt(0,bt-Te),st,Et),Yt[R]!=null&&le(_t.get(Yt[R]),Nt,dt+$t(Te/2),ue,rt(0,bt-Te),st,Et)):le(Mn,Nt,dt+$t(Te/2),ue,rt(0,bt-Te),st,Et),he(_,S,R,Nt-Te/2,dt,ue+Te,bt)}}return Te>0?et.stroke=Rt?Ln:Mn:Rt||(et._fill=D.width==0?D._fill:D._stroke??D._fill,et.width=0),et.fill=Rt?_t:Mn,et})}function Id(e,t){let o=se(t?.alignGaps,0);return(n,l,r,a)=>Pn(n,l,(c,u,m,$,p,g,_,S,x,y,D)=>{[r,a]=cl(m,r,a);let w=c.pxRound,E=U=>w(g(U,$,y,S)),C=U=>w(_(U,p,D,x)),q,N,J;$.ori==0?(q=hl,J=ao,N=xi):(q=ml,J=so,N=Ci);let B=$.dir*($.ori==0?1:-1),Z=E(u[B==1?r:a]),W=Z,P=[],j=[];for(let U=B==1?r:a;U>=r&&U<=a;U+=B)if(m[U]!=null){let xe=u[U],le=E(xe);P.push(W=le),j.push(C(m[U]))}let I={stroke:e(P,j,q,J,N,w),fill:null,clip:null,band:null,gaps:null,flags:lo},K=I.stroke,[H,ne]=Fr(n,l);if(c.fill!=null||H!=0){let U=I.fill=new Path2D(K),at=c.fillTo(n,l,c.min,c.max,H),xe=C(at);J(U,W,xe),J(U,Z,xe)}if(!c.spanGaps){let U=[];U.push(...Vr(u,m,r,a,B,E,o)),I.gaps=U=c.gaps(n,l,r,a,U),I.clip=pl(U,$.ori,S,x,y,D)}return ne!=0&&(I.band=ne==2?[Xt(n,l,r,a,K,-1),Xt(n,l,r,a,K,1)]:Xt(n,l,r,a,K,ne)),I})}function Md(e){return Id(Rd,e)}function Rd(e,t,o,n,l,r){let a=e.length;if(a<2)return null;let c=new Path2D;if(o(c,e[0],t[0]),a==2)n(c,e[1],t[1]);else{let u=Array(a),m=Array(a-1),$=Array(a-1),p=Array(a-1);for(let g=0;g<a-1;g++)$[g]=t[g+1]-t[g],p[g]=e[g+1]-e[g],m[g]=$[g]/p[g];u[0]=m[0];for(let g=1;g<a-1;g++)m[g]===0||m[g-1]===0||m[g-1]>0!=m[g]>0?u[g]=0:(u[g]=3*(p[g-1]+p[g])/((2*p[g]+p[g-1])/m[g-1]+(p[g]+2*p[g-1])/m[g]),isFinite(u[g])||(u[g]=0));u[a-1]=m[a-2];for(let g=0;g<a-1;g++)l(c,e[g]+p[g]/3,t[g]+u[g]*p[g]/3,e[g+1]-p[g]/3,t[g+1]-u[g+1]*p[g]/3,e[g+1],t[g+1])}return c}var xr=new Set;function Bs(){for(let e of xr)e.syncRect(!0)}ro&&(An(mu,eo,Bs),An($u,eo,Bs,!0),An(al,eo,()=>{qe.pxRatio=ce}));var Nd=Ti(),Od=Ei();function js(e,t,o,n){return(n?[e[0],e[1]].concat(e.slice(2)):[e[0]].concat(e.slice(1))).map((r,a)=>Cr(r,a,t,o))}function Fd(e,t){return e.map((o,n)=>n==0?{}:Oe({},t,o))}function Cr(e,t,o,n){return Oe({},t==0?o:n,e)}function Pi(e,t,o){return t==null?no:[t,o]}var Vd=Pi;function zd(e,t,o){return t==null?no:sl(t,o,Dr,!0)}function Di(e,t,o,n){return t==null?no:ul(t,o,e.scales[n].log,!1)}var Ud=Di;function Li(e,t,o,n){return t==null?no:Pr(t,o,e.scales[n].log,!1)}var Hd=Li;function Wd(e,t,o,n,l){let r=rt(Ss(e),Ss(t)),a=t-e,c=It(l/n*a,o);do{let u=o[c],m=n*u/a;if(m>=l&&r+(u<5?fn.get(u):0)<=17)return[u,m]}while(++c<o.length);return[0,0]}function Gs(e){let t,o;return e=e.replace(/(\d+)px/,(n,l)=>(t=Ue((o=+l)*ce))+"px"),[e,t,o]}function Bd(e){e.show&&[e.font,e.labelFont].forEach(t=>{let o=_e(t[2]*ce,1);t[0]=t[0].replace(/[0-9.]+px/,o+"px"),t[1]=o})}function qe(e,t,o){let n={mode:se(e.mode,1)},l=n.mode;function r(s,i,d,h){let b=i.valToPct(s);return h+d*(i.dir==-1?1-b:b)}function a(s,i,d,h){let b=i.valToPct(s);return h+d*(i.dir==-1?b:1-b)}function c(s,i,d,h){return i.ori==0?r(s,i,d,h):a(s,i,d,h)}n.valToPosH=r,n.valToPosV=a;let u=!1;n.status=0;let m=n.root=kt(Qc);if(e.id!=null&&(m.id=e.id),mt(m,e.class),e.title){let s=kt(eu,m);s.textContent=e.title}let $=Lt("canvas"),p=n.ctx=$.getContext("2d"),g=kt(tu,m);An("click",g,s=>{s.target===S&&(ye!=Gn||Ee!=Kn)&&Qe.click(n,s)},!0);let _=n.under=kt(nu,g);g.appendChild($);let S=n.over=kt(ou,g);e=oo(e);let x=+se(e.pxAlign,1),y=Hs(x);(e.plugins||[]).forEach(s=>{s.opts&&(e=s.opts(n,e)||e)});let D=e.ms||.001,w=n.series=l==1?js(e.series||[],Rs,zs,!1):Fd(e.series||[null],Vs),E=n.axes=js(e.axes||[],Ms,Os,!0),C=n.scales={},q=n.bands=e.bands||[];q.forEach(s=>{s.fill=te(s.fill||null),s.dir=se(s.dir,-1)});let N=l==2?w[1].facets[0].scale:w[0].scale,J={axes:$c,series:dc},B=(e.drawOrder||["axes","series"]).map(s=>J[s]);function Z(s){let i=s.distr==3?d=>Zt(d>0?d:s.clamp(n,d,s.min,s.max,s.key)):s.distr==4?d=>pr(d,s.asinh):s.distr==100?d=>s.fwd(d):d=>d;return d=>{let h=i(d),{_min:b,_max:v}=s,k=v-b;return(h-b)/k}}function W(s){let i=C[s];if(i==null){let d=(e.scales||Lo)[s]||Lo;if(d.from!=null){W(d.from);let h=Oe({},C[d.from],d,{key:s});h.valToPct=Z(h),C[s]=h}else{i=C[s]=Oe({},s==N?vi:Cd,d),i.key=s;let h=i.time,b=i.range,v=dn(b);if((s!=N||l==2&&!h)&&(v&&(b[0]==null||b[1]==null)&&(b={min:b[0]==null?vs:{mode:1,hard:b[0],soft:b[0]},max:b[1]==null?vs:{mode:1,hard:b[1],soft:b[1]}},v=!1),!v&&fl(b))){let k=b;b=(A,T,L)=>T==null?no:sl(T,L,k)}i.range=te(b||(h?Vd:s==N?i.distr==3?Ud:i.distr==4?Hd:Pi:i.distr==3?Di:i.distr==4?Li:zd)),i.auto=te(v?!1:i.auto),i.clamp=te(i.clamp||xd),i._min=i._max=null,i.valToPct=Z(i)}}}W("x"),W("y"),l==1&&w.forEach(s=>{W(s.scale)}),E.forEach(s=>{W(s.scale)});for(let s in e.scales)W(s);let P=C[N],j=P.distr,I,K;P.ori==0?(mt(m,Zc),I=r,K=a):(mt(m,Xc),I=a,K=r);let H={};for(let s in C){let i=C[s];(i.min!=null||i.max!=null)&&(H[s]={min:i.min,max:i.max},i.min=i.max=null)}let ne=e.tzDate||(s=>new Date(Ue(s/D))),U=e.fmtDate||Mr,at=D==1?Zu(ne):td(ne),xe=Ds(ne,Ps(D==1?Qu:ed,U)),le=Is(ne,Ls(od,U)),he=[],X=n.legend=Oe({},ad,e.legend),V=n.cursor=Oe({},fd,{drag:{y:l==2}},e.cursor),Fe=X.show,Xe=V.show,Ce=X.markers;X.idxs=he,Ce.width=te(Ce.width),Ce.dash=te(Ce.dash),Ce.stroke=te(Ce.stroke),Ce.fill=te(Ce.fill);let ue,Ct,ut,Te=[],Rt=[],Yt,_t=!1,tn={};if(X.live){let s=w[1]?w[1].values:null;_t=s!=null,Yt=_t?s(n,1,0):{_:0};for(let i in Yt)tn[i]=Ar}if(Fe)if(ue=Lt("table",cu,m),ut=Lt("tbody",null,ue),X.mount(n,ue),_t){Ct=Lt("thead",null,ue,ut);let s=Lt("tr",null,Ct);Lt("th",null,s);for(var Ln in Yt)Lt("th",ss,s).textContent=Ln}else mt(ue,du),X.live&&mt(ue,uu);let In={show:!0},uo={show:!1};function No(s,i){if(i==0&&(_t||!X.live||l==2))return no;let d=[],h=Lt("tr",fu,ut,ut.childNodes[i]);mt(h,s.class),s.show||mt(h,En);let b=Lt("th",null,h);if(Ce.show){let A=kt(pu,b);if(i>0){let T=Ce.width(n,i);T&&(A.style.border=T+"px "+Ce.dash(n,i)+" "+Ce.stroke(n,i)),A.style.background=Ce.fill(n,i)}}let v=kt(ss,b);s.label instanceof HTMLElement?v.appendChild(s.label):v.textContent=s.label,i>0&&(Ce.show||(v.style.color=s.width>0?Ce.stroke(n,i):Ce.fill(n,i)),et("click",b,A=>{if(V._lock)return;_n(A);let T=w.indexOf(s);if((A.ctrlKey||A.metaKey)!=X.isolate){let L=w.some((M,O)=>O>0&&O!=T&&M.show);w.forEach((M,O)=>{O>0&&Ft(O,L?O==T?In:uo:In,!0,Me.setSeries)})}else Ft(T,{show:!s.show},!0,Me.setSeries)},!1),On&&et(ds,b,A=>{V._lock||(_n(A),Ft(w.indexOf(s),qn,!0,Me.setSeries))},!1));for(var k in Yt){let A=Lt("td",hu,h);A.textContent="--",d.push(A)}return[h,d]}let pn=new Map;function et(s,i,d,h=!0){let b=pn.get(i)||{},v=V.bind[s](n,i,d,h);v&&(An(s,i,b[s]=v),pn.set(i,b))}function Mn(s,i,d){let h=pn.get(i)||{};for(let b in h)(s==null||b==s)&&(vr(b,i,h[b]),delete h[b]);s==null&&pn.delete(i)}let qt=0,hn=0,Q=0,R=0,be=0,Ve=0,Rn=be,mn=Ve,Nt=Q,$n=R,dt=0,bt=0,st=0,Et=0;n.bbox={};let Sl=!1,Oo=!1,Nn=!1,gn=!1,Fo=!1,vt=!1;function kl(s,i,d){(d||s!=n.width||i!=n.height)&&Yr(s,i),Hn(!1),Nn=!0,Oo=!0,Wn()}function Yr(s,i){n.width=qt=Q=s,n.height=hn=R=i,be=Ve=0,lc(),rc();let d=n.bbox;dt=d.left=xn(be*ce,.5),bt=d.top=xn(Ve*ce,.5),st=d.width=xn(Q*ce,.5),Et=d.height=xn(R*ce,.5)}let tc=3;function nc(){let s=!1,i=0;for(;!s;){i++;let d=hc(i),h=mc(i);s=i==tc||d&&h,s||(Yr(n.width,n.height),Oo=!0)}}function oc({width:s,height:i}){kl(s,i)}n.setSize=oc;function lc(){let s=!1,i=!1,d=!1,h=!1;E.forEach((b,v)=>{if(b.show&&b._show){let{side:k,_size:A}=b,T=k%2,L=b.label!=null?b.labelSize:0,M=A+L;M>0&&(T?(Q-=M,k==3?(be+=M,h=!0):d=!0):(R-=M,k==0?(Ve+=M,s=!0):i=!0))}}),bn[0]=s,bn[1]=d,bn[2]=i,bn[3]=h,Q-=nn[1]+nn[3],be+=nn[3],R-=nn[2]+nn[0],Ve+=nn[0]}function rc(){let s=be+Q,i=Ve+R,d=be,h=Ve;function b(v,k){switch(v){case 1:return s+=k,s-k;case 2:return i+=k,i-k;case 3:return d-=k,d+k;case 0:return h-=k,h+k}}E.forEach((v,k)=>{if(v.show&&v._show){let A=v.side;v._pos=b(A,v._size),v.label!=null&&(v._lpos=b(A,v.labelSize))}})}if(V.dataIdx==null){let s=V.hover,i=s.skip=new Set(s.skip??[]);i.add(void 0);let d=s.prox=te(s.prox),h=s.bias??(s.bias=0);V.dataIdx=(b,v,k,A)=>{if(v==0)return k;let T=k,L=d(b,v,k,A)??ge,M=L>=0&&L<ge,O=P.ori==0?Q:R,Y=V.left,ie=t[0],re=t[v];if(i.has(re[k])){T=null;let ee=null,G=null,z;if(h==0||h==-1)for(z=k;ee==null&&z-- >0;)i.has(re[z])||(ee=z);if(h==0||h==1)for(z=k;G==null&&z++<re.length;)i.has(re[z])||(G=z);if(ee!=null||G!=null)if(M){let Se=ee==null?-1/0:I(ie[ee],P,O,0),De=G==null?1/0:I(ie[G],P,O,0),Ye=Y-Se,me=De-Y;Ye<=me?Ye<=L&&(T=ee):me<=L&&(T=G)}else T=G==null?ee:ee==null?G:k-ee<=G-k?ee:G}else M&&He(Y-I(ie[k],P,O,0))>L&&(T=null);return T}}let _n=s=>{V.event=s};V.idxs=he,V._lock=!1;let Ze=V.points;Ze.show=te(Ze.show),Ze.size=te(Ze.size),Ze.stroke=te(Ze.stroke),Ze.width=te(Ze.width),Ze.fill=te(Ze.fill);let Ot=n.focus=Oe({},e.focus||{alpha:.3},V.focus),On=Ot.prox>=0,Fn=On&&Ze.one,yt=[],Vn=[],zn=[];function qr(s,i){let d=Ze.show(n,i);if(d instanceof HTMLElement)return mt(d,iu),mt(d,s.class),Kt(d,-10,-10,Q,R),S.insertBefore(d,yt[i]),d}function Jr(s,i){if(l==1||i>0){let d=l==1&&C[s.scale].time,h=s.value;s.value=d?Cs(h)?Is(ne,Ls(h,U)):h||le:h||wd,s.label=s.label||(d?hd:pd)}if(Fn||i>0){s.width=s.width==null?1:s.width,s.paths=s.paths||Nd||Cu,s.fillTo=te(s.fillTo||Ed),s.pxAlign=+se(s.pxAlign,x),s.pxRound=Hs(s.pxAlign),s.stroke=te(s.stroke||null),s.fill=te(s.fill||null),s._stroke=s._fill=s._paths=s._focus=null;let d=Sd(rt(1,s.width),1),h=s.points=Oe({},{size:d,width:rt(1,d*.2),stroke:s.stroke,space:d*2,paths:Od,_stroke:null,_fill:null},s.points);h.show=te(h.show),h.filter=te(h.filter),h.fill=te(h.fill),h.stroke=te(h.stroke),h.paths=te(h.paths),h.pxAlign=s.pxAlign}if(Fe){let d=No(s,i);Te.splice(i,0,d[0]),Rt.splice(i,0,d[1]),X.values.push(null)}if(Xe){he.splice(i,0,null);let d=null;Fn?i==0&&(d=qr(s,i)):i>0&&(d=qr(s,i)),yt.splice(i,0,d),Vn.splice(i,0,0),zn.splice(i,0,0)}Ke("addSeries",i)}function ac(s,i){i=i??w.length,s=l==1?Cr(s,i,Rs,zs):Cr(s,i,{},Vs),w.splice(i,0,s),Jr(w[i],i)}n.addSeries=ac;function sc(s){if(w.splice(s,1),Fe){X.values.splice(s,1),Rt.splice(s,1);let i=Te.splice(s,1)[0];Mn(null,i.firstChild),i.remove()}Xe&&(he.splice(s,1),yt.splice(s,1)[0].remove(),Vn.splice(s,1),zn.splice(s,1)),Ke("delSeries",s)}n.delSeries=sc;let bn=[!1,!1,!1,!1];function ic(s,i){if(s._show=s.show,s.show){let d=s.side%2,h=C[s.scale];h==null&&(s.scale=d?w[1].scale:N,h=C[s.scale]);let b=h.time;s.size=te(s.size),s.space=te(s.space),s.rotate=te(s.rotate),dn(s.incrs)&&s.incrs.forEach(k=>{!fn.has(k)&&fn.set(k,ti(k))}),s.incrs=te(s.incrs||(h.distr==2?Yu:b?D==1?Ju:Xu:Cn)),s.splits=te(s.splits||(b&&h.distr==1?at:h.distr==3?wr:h.distr==4?gd:$d)),s.stroke=te(s.stroke),s.grid.stroke=te(s.grid.stroke),s.ticks.stroke=te(s.ticks.stroke),s.border.stroke=te(s.border.stroke);let v=s.values;s.values=dn(v)&&!dn(v[0])?te(v):b?dn(v)?Ds(ne,Ps(v,U)):Cs(v)?nd(ne,v):v||xe:v||md,s.filter=te(s.filter||(h.distr>=3&&h.log==10?vd:h.distr==3&&h.log==2?yd:Xs)),s.font=Gs(s.font),s.labelFont=Gs(s.labelFont),s._size=s.size(n,null,i,0),s._space=s._rotate=s._incrs=s._found=s._splits=s._values=null,s._size>0&&(bn[i]=!0,s._el=kt(lu,g))}}function fo(s,i,d,h){let[b,v,k,A]=d,T=i%2,L=0;return T==0&&(A||v)&&(L=i==0&&!b||i==2&&!k?Ue(Ms.size/3):0),T==1&&(b||k)&&(L=i==1&&!v||i==3&&!A?Ue(Os.size/2):0),L}let Qr=n.padding=(e.padding||[fo,fo,fo,fo]).map(s=>te(se(s,fo))),nn=n._padding=Qr.map((s,i)=>s(n,i,bn,0)),Je,We=null,Be=null,Vo=l==1?w[0].idxs:null,At=null,po=!1;function Zr(s,i){if(t=s??[],n.data=n._data=t,l==2){Je=0;for(let d=1;d<w.length;d++)Je+=t[d][0].length}else{t.length==0&&(n.data=n._data=t=[[]]),At=t[0],Je=At.length;let d=t;if(j==2){d=t.slice();let h=d[0]=Array(Je);for(let b=0;b<Je;b++)h[b]=b}n._data=t=d}if(Hn(!0),Ke("setData"),j==2&&(Nn=!0),i!==!1){let d=P;d.auto(n,po)?xl():ln(N,d.min,d.max),gn=gn||V.left>=0,vt=!0,Wn()}}n.setData=Zr;function xl(){po=!0;let s,i;l==1&&(Je>0?(We=Vo[0]=0,Be=Vo[1]=Je-1,s=t[0][We],i=t[0][Be],j==2?(s=We,i=Be):s==i&&(j==3?[s,i]=ul(s,s,P.log,!1):j==4?[s,i]=Pr(s,s,P.log,!1):P.time?i=s+Ue(86400/D):[s,i]=sl(s,i,Dr,!0))):(We=Vo[0]=s=null,Be=Vo[1]=i=null)),ln(N,s,i)}let zo,Un,Cl,El,Al,Tl,Pl,Dl,Ll,it;function Xr(s,i,d,h,b,v){s??(s=cs),d??(d=Ir),h??(h="butt"),b??(b=cs),v??(v="round"),s!=zo&&(p.strokeStyle=zo=s),b!=Un&&(p.fillStyle=Un=b),i!=Cl&&(p.lineWidth=Cl=i),v!=Al&&(p.lineJoin=Al=v),h!=Tl&&(p.lineCap=Tl=h),d!=El&&p.setLineDash(El=d)}function ea(s,i,d,h){i!=Un&&(p.fillStyle=Un=i),s!=Pl&&(p.font=Pl=s),d!=Dl&&(p.textAlign=Dl=d),h!=Ll&&(p.textBaseline=Ll=h)}function Il(s,i,d,h,b=0){if(h.length>0&&s.auto(n,po)&&(i==null||i.min==null)){let v=se(We,0),k=se(Be,h.length-1),A=d.min==null?vu(h,v,k,b,s.distr==3):[d.min,d.max];s.min=Mt(s.min,d.min=A[0]),s.max=rt(s.max,d.max=A[1])}}let ta={min:null,max:null};function cc(){for(let h in C){let b=C[h];H[h]==null&&(b.min==null||H[N]!=null&&b.auto(n,po))&&(H[h]=ta)}for(let h in C){let b=C[h];H[h]==null&&b.from!=null&&H[b.from]!=null&&(H[h]=ta)}H[N]!=null&&Hn(!0);let s={};for(let h in H){let b=H[h];if(b!=null){let v=s[h]=oo(C[h],Tu);if(b.min!=null)Oe(v,b);else if(h!=N||l==2)if(Je==0&&v.from==null){let k=v.range(n,null,null,h);v.min=k[0],v.max=k[1]}else v.min=ge,v.max=-ge}}if(Je>0){w.forEach((h,b)=>{if(l==1){let v=h.scale,k=H[v];if(k==null)return;let A=s[v];if(b==0){let T=A.range(n,A.min,A.max,v);A.min=T[0],A.max=T[1],We=It(A.min,t[0]),Be=It(A.max,t[0]),Be-We>1&&(t[0][We]<A.min&&We++,t[0][Be]>A.max&&Be--),h.min=At[We],h.max=At[Be]}else h.show&&h.auto&&Il(A,k,h,t[b],h.sorted);h.idxs[0]=We,h.idxs[1]=Be}else if(b>0&&h.show&&h.auto){let[v,k]=h.facets,A=v.scale,T=k.scale,[L,M]=t[b],O=s[A],Y=s[T];O!=null&&Il(O,H[A],v,L,v.sorted),Y!=null&&Il(Y,H[T],k,M,k.sorted),h.min=k.min,h.max=k.max}});for(let h in s){let b=s[h],v=H[h];if(b.from==null&&(v==null||v.min==null)){let k=b.range(n,b.min==ge?null:b.min,b.max==-ge?null:b.max,h);b.min=k[0],b.max=k[1]}}}for(let h in s){let b=s[h];if(b.from!=null){let v=s[b.from];if(v.min==null)b.min=b.max=null;else{let k=b.range(n,v.min,v.max,h);b.min=k[0],b.max=k[1]}}}let i={},d=!1;for(let h in s){let b=s[h],v=C[h];if(v.min!=b.min||v.max!=b.max){v.min=b.min,v.max=b.max;let k=v.distr;v._min=k==3?Zt(v.min):k==4?pr(v.min,v.asinh):k==100?v.fwd(v.min):v.min,v._max=k==3?Zt(v.max):k==4?pr(v.max,v.asinh):k==100?v.fwd(v.max):v.max,i[h]=d=!0}}if(d){w.forEach((h,b)=>{l==2?b>0&&i.y&&(h._paths=null):i[h.scale]&&(h._paths=null)});for(let h in i)Nn=!0,Ke("setScale",h);Xe&&V.left>=0&&(gn=vt=!0)}for(let h in H)H[h]=null}function uc(s){let i=yr(We-1,0,Je-1),d=yr(Be+1,0,Je-1);for(;s[i]==null&&i>0;)i--;for(;s[d]==null&&d<Je-1;)d++;return[i,d]}function dc(){if(Je>0){let s=w.some(i=>i._focus)&&it!=Ot.alpha;s&&(p.globalAlpha=it=Ot.alpha),w.forEach((i,d)=>{if(d>0&&i.show&&(na(d,!1),na(d,!0),i._paths==null)){let h=it;it!=i.alpha&&(p.globalAlpha=it=i.alpha);let b=l==2?[0,t[d][0].length-1]:uc(t[d]);i._paths=i.paths(n,d,b[0],b[1]),it!=h&&(p.globalAlpha=it=h)}}),w.forEach((i,d)=>{if(d>0&&i.show){let h=it;it!=i.alpha&&(p.globalAlpha=it=i.alpha),i._paths!=null&&oa(d,!1);{let b=i._paths!=null?i._paths.gaps:null,v=i.points.show(n,d,We,Be,b),k=i.points.filter(n,d,v,b);(v||k)&&(i.points._paths=i.points.paths(n,d,We,Be,k),oa(d,!0))}it!=h&&(p.globalAlpha=it=h),Ke("drawSeries",d)}}),s&&(p.globalAlpha=it=1)}}function na(s,i){let d=i?w[s].points:w[s];d._stroke=d.stroke(n,s),d._fill=d.fill(n,s)}function oa(s,i){let d=i?w[s].points:w[s],{stroke:h,fill:b,clip:v,flags:k,_stroke:A=d._stroke,_fill:T=d._fill,_width:L=d.width}=d._paths;L=_e(L*ce,3);let M=null,O=L%2/2;i&&T==null&&(T=L>0?"#fff":A);let Y=d.pxAlign==1&&O>0;if(Y&&p.translate(O,O),!i){let ie=dt-L/2,re=bt-L/2,ee=st+L,G=Et+L;M=new Path2D,M.rect(ie,re,ee,G)}i?Ml(A,L,d.dash,d.cap,T,h,b,k,v):fc(s,A,L,d.dash,d.cap,T,h,b,k,M,v),Y&&p.translate(-O,-O)}function fc(s,i,d,h,b,v,k,A,T,L,M){let O=!1;T!=0&&q.forEach((Y,ie)=>{if(Y.series[0]==s){let re=w[Y.series[1]],ee=t[Y.series[1]],G=(re._paths||Lo).band;dn(G)&&(G=Y.dir==1?G[0]:G[1]);let z,Se=null;re.show&&G&&wu(ee,We,Be)?(Se=Y.fill(n,ie)||v,z=re._paths.clip):G=null,Ml(i,d,h,b,Se,k,A,T,L,M,z,G),O=!0}}),O||Ml(i,d,h,b,v,k,A,T,L,M)}let la=lo|kr;function Ml(s,i,d,h,b,v,k,A,T,L,M,O){Xr(s,i,d,h,b),(T||L||O)&&(p.save(),T&&p.clip(T),L&&p.clip(L)),O?(A&la)==la?(p.clip(O),M&&p.clip(M),Ho(b,k),Uo(s,v,i)):A&kr?(Ho(b,k),p.clip(O),Uo(s,v,i)):A&lo&&(p.save(),p.clip(O),M&&p.clip(M),Ho(b,k),p.restore(),Uo(s,v,i)):(Ho(b,k),Uo(s,v,i)),(T||L||O)&&p.restore()}function Uo(s,i,d){d>0&&(i instanceof Map?i.forEach((h,b)=>{p.strokeStyle=zo=b,p.stroke(h)}):i!=null&&s&&p.stroke(i))}function Ho(s,i){i instanceof Map?i.forEach((d,h)=>{p.fillStyle=Un=h,p.fill(d)}):i!=null&&s&&p.fill(i)}function pc(s,i,d,h){let b=E[s],v;if(h<=0)v=[0,0];else{let k=b._space=b.space(n,s,i,d,h),A=b._incrs=b.incrs(n,s,i,d,h,k);v=Wd(i,d,A,h,k)}return b._found=v}function Rl(s,i,d,h,b,v,k,A,T,L){let M=k%2/2;x==1&&p.translate(M,M),Xr(A,k,T,L,A),p.beginPath();let O,Y,ie,re,ee=b+(h==0||h==3?-v:v);d==0?(Y=b,re=ee):(O=b,ie=ee);for(let G=0;G<s.length;G++)i[G]!=null&&(d==0?O=ie=s[G]:Y=re=s[G],p.moveTo(O,Y),p.lineTo(ie,re));p.stroke(),x==1&&p.translate(-M,-M)}function hc(s){let i=!0;return E.forEach((d,h)=>{if(!d.show)return;let b=C[d.scale];if(b.min==null){d._show&&(i=!1,d._show=!1,Hn(!1));return}else d._show||(i=!1,d._show=!0,Hn(!1));let v=d.side,k=v%2,{min:A,max:T}=b,[L,M]=pc(h,A,T,k==0?Q:R);if(M==0)return;let O=b.distr==2,Y=d._splits=d.splits(n,h,A,T,L,M,O),ie=b.distr==2?Y.map(z=>At[z]):Y,re=b.distr==2?At[Y[1]]-At[Y[0]]:L,ee=d._values=d.values(n,d.filter(n,ie,h,M,re),h,M,re);d._rotate=v==2?d.rotate(n,ee,h,M):0;let G=d._size;d._size=xt(d.size(n,ee,h,s)),G!=null&&d._size!=G&&(i=!1)}),i}function mc(s){let i=!0;return Qr.forEach((d,h)=>{let b=d(n,h,bn,s);b!=nn[h]&&(i=!1),nn[h]=b}),i}function $c(){for(let s=0;s<E.length;s++){let i=E[s];if(!i.show||!i._show)continue;let d=i.side,h=d%2,b,v,k=i.stroke(n,s),A=d==0||d==3?-1:1,[T,L]=i._found;if(i.label!=null){let nt=i.labelGap*A,ht=Ue((i._lpos+nt)*ce);ea(i.labelFont[0],k,"center",d==2?"top":is),p.save(),h==1?(b=v=0,p.translate(ht,Ue(bt+Et/2)),p.rotate((d==3?-rl:rl)/2)):(b=Ue(dt+st/2),v=ht);let wn=Qs(i.label)?i.label(n,s,T,L):i.label;p.fillText(wn,b,v),p.restore()}if(L==0)continue;let M=C[i.scale],O=h==0?st:Et,Y=h==0?dt:bt,ie=i._splits,re=M.distr==2?ie.map(nt=>At[nt]):ie,ee=M.distr==2?At[ie[1]]-At[ie[0]]:T,G=i.ticks,z=i.border,Se=G.show?G.size:0,De=Ue(Se*ce),Ye=Ue((i.alignTo==2?i._size-Se-i.gap:i.gap)*ce),me=i._rotate*-rl/180,Le=y(i._pos*ce),ft=(De+Ye)*A,tt=Le+ft;v=h==0?tt:0,b=h==1?tt:0;let wt=i.font[0],Tt=i.align==1?Zn:i.align==2?ur:me>0?Zn:me<0?ur:h==0?"center":d==3?ur:Zn,zt=me||h==1?"middle":d==2?"top":is;ea(wt,k,Tt,zt);let pt=i.font[1]*i.lineGap,St=ie.map(nt=>y(c(nt,M,O,Y))),Pt=i._values;for(let nt=0;nt<Pt.length;nt++){let ht=Pt[nt];if(ht!=null){h==0?b=St[nt]:v=St[nt],ht=""+ht;let wn=ht.indexOf(`
`)==-1?[ht]:ht.split(/\n/gm);for(let ot=0;ot<wn.length;ot++){let Sa=wn[ot];me?(p.save(),p.translate(b,v+ot*pt),p.rotate(me),p.fillText(Sa,0,0),p.restore()):p.fillText(Sa,b,v+ot*pt)}}}G.show&&Rl(St,G.filter(n,re,s,L,ee),h,d,Le,De,_e(G.width*ce,3),G.stroke(n,s),G.dash,G.cap);let Ut=i.grid;Ut.show&&Rl(St,Ut.filter(n,re,s,L,ee),h,h==0?2:1,h==0?bt:dt,h==0?Et:st,_e(Ut.width*ce,3),Ut.stroke(n,s),Ut.dash,Ut.cap),z.show&&Rl([Le],[1],h==0?1:0,h==0?1:2,h==1?bt:dt,h==1?Et:st,_e(z.width*ce,3),z.stroke(n,s),z.dash,z.cap)}Ke("drawAxes")}function Hn(s){w.forEach((i,d)=>{d>0&&(i._paths=null,s&&(l==1?(i.min=null,i.max=null):i.facets.forEach(h=>{h.min=null,h.max=null})))})}let Wo=!1,Nl=!1,ho=[];function gc(){Nl=!1;for(let s=0;s<ho.length;s++)Ke(...ho[s]);ho.length=0}function Wn(){Wo||(Nu(ra),Wo=!0)}function _c(s,i=!1){Wo=!0,Nl=i,s(n),ra(),i&&ho.length>0&&queueMicrotask(gc)}n.batch=_c;function ra(){if(Sl&&(cc(),Sl=!1),Nn&&(nc(),Nn=!1),Oo){if(ke(_,Zn,be),ke(_,"top",Ve),ke(_,Ao,Q),ke(_,To,R),ke(S,Zn,be),ke(S,"top",Ve),ke(S,Ao,Q),ke(S,To,R),ke(g,Ao,qt),ke(g,To,hn),$.width=Ue(qt*ce),$.height=Ue(hn*ce),E.forEach(({_el:s,_show:i,_size:d,_pos:h,side:b})=>{if(s!=null)if(i){let v=b===3||b===0?d:0,k=b%2==1;ke(s,k?"left":"top",h-v),ke(s,k?"width":"height",d),ke(s,k?"top":"left",k?Ve:be),ke(s,k?"height":"width",k?R:Q),br(s,En)}else mt(s,En)}),zo=Un=Cl=Al=Tl=Pl=Dl=Ll=El=null,it=1,go(!0),be!=Rn||Ve!=mn||Q!=Nt||R!=$n){Hn(!1);let s=Q/Nt,i=R/$n;if(Xe&&!gn&&V.left>=0){V.left*=s,V.top*=i,Bn&&Kt(Bn,Ue(V.left),0,Q,R),jn&&Kt(jn,0,Ue(V.top),Q,R);for(let d=0;d<yt.length;d++){let h=yt[d];h!=null&&(Vn[d]*=s,zn[d]*=i,Kt(h,xt(Vn[d]),xt(zn[d]),Q,R))}}if(we.show&&!Fo&&we.left>=0&&we.width>0){we.left*=s,we.width*=s,we.top*=i,we.height*=i;for(let d in Hl)ke(Yn,d,we[d])}Rn=be,mn=Ve,Nt=Q,$n=R}Ke("setSize"),Oo=!1}qt>0&&hn>0&&(p.clearRect(0,0,$.width,$.height),Ke("drawClear"),B.forEach(s=>s()),Ke("draw")),we.show&&Fo&&(Bo(we),Fo=!1),Xe&&gn&&(yn(null,!0,!1),gn=!1),X.show&&X.live&&vt&&(zl(),vt=!1),u||(u=!0,n.status=1,Ke("ready")),po=!1,Wo=!1}n.redraw=(s,i)=>{Nn=i||!1,s!==!1?ln(N,P.min,P.max):Wn()};function Ol(s,i){let d=C[s];if(d.from==null){if(Je==0){let h=d.range(n,i.min,i.max,s);i.min=h[0],i.max=h[1]}if(i.min>i.max){let h=i.min;i.min=i.max,i.max=h}if(Je>1&&i.min!=null&&i.max!=null&&i.max-i.min<1e-16)return;s==N&&d.distr==2&&Je>0&&(i.min=It(i.min,t[0]),i.max=It(i.max,t[0]),i.min==i.max&&i.max++),H[s]=i,Sl=!0,Wn()}}n.setScale=Ol;let Fl,Vl,Bn,jn,aa,sa,Gn,Kn,ia,ca,ye,Ee,on=!1,Qe=V.drag,je=Qe.x,Ge=Qe.y;Xe&&(V.x&&(Fl=kt(au,S)),V.y&&(Vl=kt(su,S)),P.ori==0?(Bn=Fl,jn=Vl):(Bn=Vl,jn=Fl),ye=V.left,Ee=V.top);let we=n.select=Oe({show:!0,over:!0,left:0,width:0,top:0,height:0},e.select),Yn=we.show?kt(ru,we.over?S:_):null;function Bo(s,i){if(we.show){for(let d in s)we[d]=s[d],d in Hl&&ke(Yn,d,s[d]);i!==!1&&Ke("setSelect")}}n.setSelect=Bo;function bc(s){if(w[s].show)Fe&&br(Te[s],En);else if(Fe&&mt(Te[s],En),Xe){let d=Fn?yt[0]:yt[s];d!=null&&Kt(d,-10,-10,Q,R)}}function ln(s,i,d){Ol(s,{min:i,max:d})}function Ft(s,i,d,h){i.focus!=null&&kc(s),i.show!=null&&w.forEach((b,v)=>{v>0&&(s==v||s==null)&&(b.show=i.show,bc(v),l==2?(ln(b.facets[0].scale,null,null),ln(b.facets[1].scale,null,null)):ln(b.scale,null,null),Wn())}),d!==!1&&Ke("setSeries",s,i),h&&_o("setSeries",n,s,i)}n.setSeries=Ft;function vc(s,i){Oe(q[s],i)}function yc(s,i){s.fill=te(s.fill||null),s.dir=se(s.dir,-1),i=i??q.length,q.splice(i,0,s)}function wc(s){s==null?q.length=0:q.splice(s,1)}n.addBand=yc,n.setBand=vc,n.delBand=wc;function Sc(s,i){w[s].alpha=i,Xe&&yt[s]!=null&&(yt[s].style.opacity=i),Fe&&Te[s]&&(Te[s].style.opacity=i)}let Jt,rn,vn,qn={focus:!0};function kc(s){if(s!=vn){let i=s==null,d=Ot.alpha!=1;w.forEach((h,b)=>{if(l==1||b>0){let v=i||b==0||b==s;h._focus=i?null:v,d&&Sc(b,v?1:Ot.alpha)}}),vn=s,d&&Wn()}}Fe&&On&&et(fs,ue,s=>{V._lock||(_n(s),vn!=null&&Ft(null,qn,!0,Me.setSeries))});function Vt(s,i,d){let h=C[i];d&&(s=s/ce-(h.ori==1?Ve:be));let b=Q;h.ori==1&&(b=R,s=b-s),h.dir==-1&&(s=b-s);let v=h._min,k=h._max,A=s/b,T=v+(k-v)*A,L=h.distr;return L==3?to(10,T):L==4?ku(T,h.asinh):L==100?h.bwd(T):T}function xc(s,i){let d=Vt(s,N,i);return It(d,t[0],We,Be)}n.valToIdx=s=>It(s,t[0]),n.posToIdx=xc,n.posToVal=Vt,n.valToPos=(s,i,d)=>C[i].ori==0?r(s,C[i],d?st:Q,d?dt:0):a(s,C[i],d?Et:R,d?bt:0),n.setCursor=(s,i,d)=>{ye=s.left,Ee=s.top,yn(null,i,d)};function ua(s,i){ke(Yn,Zn,we.left=s),ke(Yn,Ao,we.width=i)}function da(s,i){ke(Yn,"top",we.top=s),ke(Yn,To,we.height=i)}let mo=P.ori==0?ua:da,$o=P.ori==1?ua:da;function Cc(){if(Fe&&X.live)for(let s=l==2?1:0;s<w.length;s++){if(s==0&&_t)continue;let i=X.values[s],d=0;for(let h in i)Rt[s][d++].firstChild.nodeValue=i[h]}}function zl(s,i){if(s!=null&&(s.idxs?s.idxs.forEach((d,h)=>{he[h]=d}):Au(s.idx)||he.fill(s.idx),X.idx=he[0]),Fe&&X.live){for(let d=0;d<w.length;d++)(d>0||l==1&&!_t)&&Ec(d,he[d]);Cc()}vt=!1,i!==!1&&Ke("setLegend")}n.setLegend=zl;function Ec(s,i){let d=w[s],h=s==0&&j==2?At:t[s],b;_t?b=d.values(n,s,i)??tn:(b=d.value(n,i==null?null:h[i],s,i),b=b==null?tn:{_:b}),X.values[s]=b}function yn(s,i,d){ia=ye,ca=Ee,[ye,Ee]=V.move(n,ye,Ee),V.left=ye,V.top=Ee,Xe&&(Bn&&Kt(Bn,Ue(ye),0,Q,R),jn&&Kt(jn,0,Ue(Ee),Q,R));let h,b=We>Be;Jt=ge,rn=null;let v=P.ori==0?Q:R,k=P.ori==1?Q:R;if(ye<0||Je==0||b){h=V.idx=null;for(let A=0;A<w.length;A++){let T=yt[A];T!=null&&Kt(T,-10,-10,Q,R)}On&&Ft(null,qn,!0,s==null&&Me.setSeries),X.live&&(he.fill(h),vt=!0)}else{let A,T,L;l==1&&(A=P.ori==0?ye:Ee,T=Vt(A,N),h=V.idx=It(T,t[0],We,Be),L=I(t[0][h],P,v,0));let M=-10,O=-10,Y=0,ie=0,re=!0,ee="",G="";for(let z=l==2?1:0;z<w.length;z++){let Se=w[z],De=he[z],Ye=De==null?null:l==1?t[z][De]:t[z][1][De],me=V.dataIdx(n,z,h,T),Le=me==null?null:l==1?t[z][me]:t[z][1][me];if(vt=vt||Le!=Ye||me!=De,he[z]=me,z>0&&Se.show){let ft=me==null?-10:me==h?L:I(l==1?t[0][me]:t[z][0][me],P,v,0),tt=Le==null?-10:K(Le,l==1?C[Se.scale]:C[Se.facets[1].scale],k,0);if(On&&Le!=null){let wt=P.ori==1?ye:Ee,Tt=He(Ot.dist(n,z,me,tt,wt));if(Tt<Jt){let zt=Ot.bias;if(zt!=0){let pt=Vt(wt,Se.scale),St=Le>=0?1:-1,Pt=pt>=0?1:-1;Pt==St&&(Pt==1?zt==1?Le>=pt:Le<=pt:zt==1?Le<=pt:Le>=pt)&&(Jt=Tt,rn=z)}else Jt=Tt,rn=z}}if(vt||Fn){let wt,Tt;P.ori==0?(wt=ft,Tt=tt):(wt=tt,Tt=ft);let zt,pt,St,Pt,Ut,nt,ht=!0,wn=Ze.bbox;if(wn!=null){ht=!1;let ot=wn(n,z);St=ot.left,Pt=ot.top,zt=ot.width,pt=ot.height}else St=wt,Pt=Tt,zt=pt=Ze.size(n,z);if(nt=Ze.fill(n,z),Ut=Ze.stroke(n,z),Fn)z==rn&&Jt<=Ot.prox&&(M=St,O=Pt,Y=zt,ie=pt,re=ht,ee=nt,G=Ut);else{let ot=yt[z];ot!=null&&(Vn[z]=St,zn[z]=Pt,bs(ot,zt,pt,ht),gs(ot,nt,Ut),Kt(ot,xt(St),xt(Pt),Q,R))}}}}if(Fn){let z=Ot.prox,Se=vn==null?Jt<=z:Jt>z||rn!=vn;if(vt||Se){let De=yt[0];De!=null&&(Vn[0]=M,zn[0]=O,bs(De,Y,ie,re),gs(De,ee,G),Kt(De,xt(M),xt(O),Q,R))}}}if(we.show&&on)if(s!=null){let[A,T]=Me.scales,[L,M]=Me.match,[O,Y]=s.cursor.sync.scales,ie=s.cursor.drag;if(je=ie._x,Ge=ie._y,je||Ge){let{left:re,top:ee,width:G,height:z}=s.select,Se=s.scales[O].ori,De=s.posToVal,Ye,me,Le,ft,tt,wt=A!=null&&L(A,O),Tt=T!=null&&M(T,Y);wt&&je?(Se==0?(Ye=re,me=G):(Ye=ee,me=z),Le=C[A],ft=I(De(Ye,O),Le,v,0),tt=I(De(Ye+me,O),Le,v,0),mo(Mt(ft,tt),He(tt-ft))):mo(0,v),Tt&&Ge?(Se==1?(Ye=re,me=G):(Ye=ee,me=z),Le=C[T],ft=K(De(Ye,Y),Le,k,0),tt=K(De(Ye+me,Y),Le,k,0),$o(Mt(ft,tt),He(tt-ft))):$o(0,k)}else Wl()}else{let A=He(ia-aa),T=He(ca-sa);if(P.ori==1){let Y=A;A=T,T=Y}je=Qe.x&&A>=Qe.dist,Ge=Qe.y&&T>=Qe.dist;let L=Qe.uni;L!=null?je&&Ge&&(je=A>=L,Ge=T>=L,!je&&!Ge&&(T>A?Ge=!0:je=!0)):Qe.x&&Qe.y&&(je||Ge)&&(je=Ge=!0);let M,O;je&&(P.ori==0?(M=Gn,O=ye):(M=Kn,O=Ee),mo(Mt(M,O),He(O-M)),Ge||$o(0,k)),Ge&&(P.ori==1?(M=Gn,O=ye):(M=Kn,O=Ee),$o(Mt(M,O),He(O-M)),je||mo(0,v)),!je&&!Ge&&(mo(0,0),$o(0,0))}if(Qe._x=je,Qe._y=Ge,s==null){if(d){if(wa!=null){let[A,T]=Me.scales;Me.values[0]=A!=null?Vt(P.ori==0?ye:Ee,A):null,Me.values[1]=T!=null?Vt(P.ori==1?ye:Ee,T):null}_o(dr,n,ye,Ee,Q,R,h)}if(On){let A=d&&Me.setSeries,T=Ot.prox;vn==null?Jt<=T&&Ft(rn,qn,!0,A):Jt>T?Ft(null,qn,!0,A):rn!=vn&&Ft(rn,qn,!0,A)}}vt&&(X.idx=h,zl()),i!==!1&&Ke("setCursor")}let an=null;Object.defineProperty(n,"rect",{get(){return an==null&&go(!1),an}});function go(s=!1){s?an=null:(an=S.getBoundingClientRect(),Ke("syncRect",an))}function fa(s,i,d,h,b,v,k){V._lock||on&&s!=null&&s.movementX==0&&s.movementY==0||(Ul(s,i,d,h,b,v,k,!1,s!=null),s!=null?yn(null,!0,!0):yn(i,!0,!1))}function Ul(s,i,d,h,b,v,k,A,T){if(an==null&&go(!1),_n(s),s!=null)d=s.clientX-an.left,h=s.clientY-an.top;else{if(d<0||h<0){ye=-10,Ee=-10;return}let[L,M]=Me.scales,O=i.cursor.sync,[Y,ie]=O.values,[re,ee]=O.scales,[G,z]=Me.match,Se=i.axes[0].side%2==1,De=P.ori==0?Q:R,Ye=P.ori==1?Q:R,me=Se?v:b,Le=Se?b:v,ft=Se?h:d,tt=Se?d:h;if(re!=null?d=G(L,re)?c(Y,C[L],De,0):-10:d=De*(ft/me),ee!=null?h=z(M,ee)?c(ie,C[M],Ye,0):-10:h=Ye*(tt/Le),P.ori==1){let wt=d;d=h,h=wt}}T&&(i==null||i.cursor.event.type==dr)&&((d<=1||d>=Q-1)&&(d=xn(d,Q)),(h<=1||h>=R-1)&&(h=xn(h,R))),A?(aa=d,sa=h,[Gn,Kn]=V.move(n,d,h)):(ye=d,Ee=h)}let Hl={width:0,height:0,left:0,top:0};function Wl(){Bo(Hl,!1)}let pa,ha,ma,$a;function ga(s,i,d,h,b,v,k){on=!0,je=Ge=Qe._x=Qe._y=!1,Ul(s,i,d,h,b,v,k,!0,!1),s!=null&&(et(fr,gr,_a,!1),_o(us,n,Gn,Kn,Q,R,null));let{left:A,top:T,width:L,height:M}=we;pa=A,ha=T,ma=L,$a=M}function _a(s,i,d,h,b,v,k){on=Qe._x=Qe._y=!1,Ul(s,i,d,h,b,v,k,!1,!0);let{left:A,top:T,width:L,height:M}=we,O=L>0||M>0,Y=pa!=A||ha!=T||ma!=L||$a!=M;if(O&&Y&&Bo(we),Qe.setScale&&O&&Y){let ie=A,re=L,ee=T,G=M;if(P.ori==1&&(ie=T,re=M,ee=A,G=L),je&&ln(N,Vt(ie,N),Vt(ie+re,N)),Ge)for(let z in C){let Se=C[z];z!=N&&Se.from==null&&Se.min!=ge&&ln(z,Vt(ee+G,z),Vt(ee,z))}Wl()}else V.lock&&(V._lock=!V._lock,yn(i,!0,s!=null));s!=null&&(Mn(fr,gr),_o(fr,n,ye,Ee,Q,R,null))}function Ac(s,i,d,h,b,v,k){if(V._lock)return;_n(s);let A=on;if(on){let T=!0,L=!0,M=10,O,Y;P.ori==0?(O=je,Y=Ge):(O=Ge,Y=je),O&&Y&&(T=ye<=M||ye>=Q-M,L=Ee<=M||Ee>=R-M),O&&T&&(ye=ye<Gn?0:Q),Y&&L&&(Ee=Ee<Kn?0:R),yn(null,!0,!0),on=!1}ye=-10,Ee=-10,he.fill(null),yn(null,!0,!0),A&&(on=A)}function ba(s,i,d,h,b,v,k){V._lock||(_n(s),xl(),Wl(),s!=null&&_o(ps,n,ye,Ee,Q,R,null))}function va(){E.forEach(Bd),kl(n.width,n.height,!0)}An(al,eo,va);let Jn={};Jn.mousedown=ga,Jn.mousemove=fa,Jn.mouseup=_a,Jn.dblclick=ba,Jn.setSeries=(s,i,d,h)=>{let b=Me.match[2];d=b(n,i,d),d!=-1&&Ft(d,h,!0,!1)},Xe&&(et(us,S,ga),et(dr,S,fa),et(ds,S,s=>{_n(s),go(!1)}),et(fs,S,Ac),et(ps,S,ba),xr.add(n),n.syncRect=go);let jo=n.hooks=e.hooks||{};function Ke(s,i,d){Nl?ho.push([s,i,d]):s in jo&&jo[s].forEach(h=>{h.call(null,n,i,d)})}(e.plugins||[]).forEach(s=>{for(let i in s.hooks)jo[i]=(jo[i]||[]).concat(s.hooks[i])});let ya=(s,i,d)=>d,Me=Oe({key:null,setSeries:!1,filters:{pub:ks,sub:ks},scales:[N,w[1]?w[1].scale:null],match:[xs,xs,ya],values:[null,null]},V.sync);Me.match.length==2&&Me.match.push(ya),V.sync=Me;let wa=Me.key,Bl=yi(wa);function _o(s,i,d,h,b,v,k){Me.filters.pub(s,i,d,h,b,v,k)&&Bl.pub(s,i,d,h,b,v,k)}Bl.sub(n);function Tc(s,i,d,h,b,v,k){Me.filters.sub(s,i,d,h,b,v,k)&&Jn[s](null,i,d,h,b,v,k)}n.pub=Tc;function Pc(){Bl.unsub(n),xr.delete(n),pn.clear(),vr(al,eo,va),m.remove(),ue?.remove(),Ke("destroy")}n.destroy=Pc;function jl(){Ke("init",e,t),Zr(t||e.data,!1),H[N]?Ol(N,H[N]):xl(),Fo=we.show&&(we.width>0||we.height>0),gn=vt=!0,kl(e.width,e.height)}return w.forEach(Jr),E.forEach(ic),o?o instanceof HTMLElement?(o.appendChild(m),jl()):o(n,jl):jl(),n}qe.assign=Oe;qe.fmtNum=Lr;qe.rangeNum=sl;qe.rangeLog=ul;qe.rangeAsinh=Pr;qe.orient=Pn;qe.pxRatio=ce;qe.join=Ru;qe.fmtDate=Mr,qe.tzDate=Gu;qe.sync=yi;{qe.addGap=Ad,qe.clipGaps=pl;let e=qe.paths={points:Ei};e.linear=Ti,e.stepped=Dd,e.bars=Ld,e.spline=Md}var io=["#1f6feb","#d97706","#b91c1c","#15803d"];function Ii(e,t,o){let n=Wt(null);return Ht(()=>{let l=n.current;if(!l)return;let r=()=>Math.max(280,l.clientWidth),a=new qe({...e(),width:r(),height:240},t,l),c=new ResizeObserver(()=>a.setSize({width:r(),height:240}));return c.observe(l),()=>{c.disconnect(),a.destroy()}},o),n}function Mi({title:e,labels:t,series:o}){let n=t.map((c,u)=>u),l=[n,...o.map(c=>c.values)],r=o.length,a=Ii(()=>({title:e,scales:{x:{time:!1,range:[-.5,t.length-.5]},y:{range:(c,u,m)=>[0,Math.max(1,m*1.1)]}},axes:[{splits:()=>n,values:(c,u)=>u.map(m=>t[m]??""),grid:{show:!1}},{}],series:[{},...o.map((c,u)=>({label:c.label,stroke:io[u%io.length],fill:`${io[u%io.length]}cc`,paths:qe.paths.bars({size:[.8/r,60],align:r===2?u===0?-1:1:0}),points:{show:!1}}))]}),l,[JSON.stringify(l),e]);return f`<figure class="chart">
    <div ref=${a} role="img" aria-label=${e}></div>
    <figcaption>
      <table>
        <caption class="visually-hidden">${e}</caption>
        <thead><tr><th scope="col">provider</th>${o.map(c=>f`<th scope="col">${c.label}</th>`)}</tr></thead>
        <tbody>${t.map((c,u)=>f`<tr><th scope="row">${c}</th>${o.map(m=>f`<td>${m.values[u]}</td>`)}</tr>`)}</tbody>
      </table>
    </figcaption>
  </figure>`}function Mo({title:e,points:t,series:o,unit:n="",max:l,span:r}){let a=t.map(p=>Date.parse(p.at)/1e3),c=(p,g)=>p[g.key]===void 0?0:p[g.key],u=[a,...o.map(p=>t.map(g=>c(g,p)))],m=p=>p===null?"—":`${p}${n}`,$=Ii(()=>({title:e,scales:{...r?{x:{time:!0,range:r.map(p=>Date.parse(p)/1e3)}}:{},y:{range:(p,g,_)=>[0,l??Math.max(1,_*1.1)]}},...n?{axes:[{},{values:(p,g)=>g.map(_=>`${_}${n}`)}]}:{},series:[{},...o.map((p,g)=>({label:p.label,stroke:io[g%io.length],width:2,...u[g+1].includes(null)?{points:{show:!0,size:6}}:{}}))]}),u,[JSON.stringify(u),e,n,l,JSON.stringify(r)]);return f`<figure class="chart">
    <div ref=${$} role="img" aria-label=${e}></div>
    <figcaption>
      <details>
        <summary>The numbers</summary>
        <table>
          <caption class="visually-hidden">${e}</caption>
          <thead><tr><th scope="col">from</th>${o.map(p=>f`<th scope="col">${p.label}</th>`)}</tr></thead>
          <tbody>${t.map(p=>f`<tr><th scope="row">${new Date(p.at).toLocaleString()}</th>${o.map(g=>f`<td>${m(c(p,g))}</td>`)}</tr>`)}</tbody>
        </table>
      </details>
    </figcaption>
  </figure>`}function Ri({me:e}){let t=de(async()=>{let[o,...n]=await Promise.all([jt("/stores",{},l=>l.code),...Ae.map(l=>oe(`/components/${l}`))]);return{stores:o,versions:Object.fromEntries(Ae.map((l,r)=>[l,n[r]]))}},[]);return f`<h1>Replay</h1>
    <p>Re-runs a store's recorded charges with the versions you choose and shows what would change. Nothing is stored or sent.</p>
    ${Pe(e,"tester")?f`<${pe} state=${t} what="stores and versions">${o=>f`<${jd} ...${o} />`}<//>`:f`<p role="note">Your role (${e.role}) may not run replays: a tester may.</p>`}`}function jd({stores:e,versions:t}){let[o,n]=F(e.find(y=>y.mode==="SHADOW")?.code??e[0]?.code??""),[l,r]=F({policy:"",provider:"",economics:""}),[a,c]=F(""),[u,m]=F(""),[$,p]=F(""),[g,_]=F(null),S=Ne();async function x(y){y.preventDefault();let D=Object.fromEntries(Object.entries(l).filter(([,E])=>E)),w={store:o,components:D};a&&(w.since=new Date(a).toISOString()),u&&(w.until=new Date(u).toISOString()),$&&(w.limit=Number($)),_(null),await S.run(()=>Xa(w,_))}return f`<form class="stack" onSubmit=${x} aria-label="Replay settings">
      <label>Store
        <select value=${o} onChange=${y=>n(y.target.value)}>
          ${e.map(y=>f`<option value=${y.code}>${y.code} (${y.mode})</option>`)}
        </select>
      </label>
      <fieldset>
        <legend>Versions to try</legend>
        ${Ae.map(y=>f`<label>${y}
          <select value=${l[y]} onChange=${D=>r({...l,[y]:D.target.value})}>
            <option value="">as recorded</option>
            <option value="bundled">bundled</option>
            ${t[y].map(D=>f`<option value=${D.version}>${D.version.slice(0,12)} ${D.label?`${D.label} `:""}(${D.source})</option>`)}
          </select>
        </label>`)}
      </fieldset>
      <div class="row">
        <label>Since <input type="datetime-local" value=${a} onInput=${y=>c(y.target.value)} /></label>
        <label>Until <input type="datetime-local" value=${u} onInput=${y=>m(y.target.value)} /></label>
        <label>At most this many charges <input type="number" min="1" max="100000" value=${$} onInput=${y=>p(y.target.value)} placeholder="10000" /></label>
      </div>
      <button type="submit" class="primary" disabled=${S.busy||!o}>Run the replay</button>
    </form>
    <${$e} error=${S.error} />
    ${S.busy?f`<p role="status">${g?f`Replaying ${g.replayed} of ${g.total} charges <progress value=${g.replayed} max=${Math.max(g.total,1)}></progress>`:"Replaying…"}</p>`:null}
    ${S.result?f`<${Gd} report=${S.result} />`:null}`}function Gd({report:e}){return f`<section aria-labelledby="replay-report" class="report">
    <h2 id="replay-report">Replay of ${e.store}</h2>
    <dl class="facts">
      <dt>Replayed</dt><dd>${e.replayed} charges</dd>
      <dt>Changed</dt><dd>${e.changed}</dd>
      <dt>Unchanged</dt><dd>${e.unchanged}</dd>
      <dt>Candidate errors</dt><dd>${e.errors}</dd>
      <dt>Unreadable</dt><dd>${e.unreadable}</dd>
      <${Ur} fee=${e.feeDeltaCentavos} net=${e.netDeltaCentavos} />
      <dt>Took</dt><dd>${e.durationMs} ms</dd>
    </dl>
    <${Hr} before=${e.providersBefore} after=${e.providersAfter} empty="No charges in this window." />
    <${Ro} title="Changes by kind" counts=${e.changesByKind} />
    <${Ro} title="Candidate errors by kind" counts=${e.errorsByKind} />
    <h3>Changed charges</h3>
    ${e.firstChanged.length===0?f`<p class="muted">No charge changed.</p>`:f`<div class="scroll"><table>
          <caption>The first ${e.firstChanged.length} changed charges, oldest first</caption>
          <thead><tr><th scope="col">Payment</th><th scope="col">Created</th><th scope="col">What changed</th><th scope="col">Before</th><th scope="col">After</th></tr></thead>
          <tbody>${e.firstChanged.map(t=>f`<tr>
            <th scope="row"><a href=${`#/payments/${t.paymentIntentId}`}><code title=${t.paymentIntentId}>…${t.paymentIntentId.slice(-12)}</code></a></th>
            <td>${ae(t.createdAt)}</td>
            <td>${t.kinds.join(", ")}</td>
            <td>${Dn(t.before)}</td><td>${Dn(t.after)}</td>
          </tr>`)}</tbody>
        </table></div>`}
    <${Dt} value=${e} summary="The report as JSON" />
  </section>`}function Ur({fee:e,net:t}){return f`<dt>Fee delta</dt><dd>${cr(e)}</dd>
    <dt>Net delta</dt><dd>${cr(t)}</dd>`}function Hr({before:e,after:t,empty:o,title:n="Charges per provider, before and after",names:l=["before","after"]}){let r=[...new Set([...Object.keys(e??{}),...Object.keys(t??{})])].sort();return r.length?f`<${Mi} title=${n}
    labels=${r}
    series=${[{label:l[0],values:r.map(a=>e?.[a]??0)},{label:l[1],values:r.map(a=>t?.[a]??0)}]} />`:f`<p class="muted">${o}</p>`}function Ro({title:e,counts:t}){let o=Object.entries(t??{}).filter(([,n])=>n>0);return o.length?f`<h3>${e}</h3><ul>${o.map(([n,l])=>f`<li><code>${n}</code>: ${l}</li>`)}</ul>`:null}function Dn(e){return e?e.status==="resolved"?f`${e.gatewayAlias} (${e.releaseClass}) · fee ${lt(e.feeCentavos)}`:f`${e.status} at ${e.step}: <code>${e.code}</code>`:"—"}function Ni({store:e,step:t}){let o=de(()=>jt("/stores",{},n=>n.code),[]);return f`<h1>Shadow comparison</h1>
    <p>A shadow candidate runs beside the active version on every new charge, off the request path; here is how often it decides differently.</p>
    <${pe} state=${o} what="the stores">${n=>f`<${Kd} key=${`${e}/${t}`} stores=${n} initialStore=${e} initialStep=${t} />`}<//>`}function Kd({stores:e,initialStore:t,initialStep:o}){let n=e.find(u=>u.code===t)??e.find(u=>u.mode==="SHADOW")??e[0],[l,r]=F(n?.code??""),[a,c]=F(Ae.includes(o)?o:"provider");return f`<form class="row" aria-label="Which comparison" onSubmit=${u=>u.preventDefault()}>
      <label>Store
        <select value=${l} onChange=${u=>r(u.target.value)}>
          ${e.map(u=>f`<option value=${u.code}>${u.code}</option>`)}
        </select>
      </label>
      <label>Step
        <select value=${a} onChange=${u=>c(u.target.value)}>
          ${Ae.map(u=>f`<option value=${u}>${u}</option>`)}
        </select>
      </label>
    </form>
    ${l?f`<${Yd} key=${`${l}/${a}`} store=${l} step=${a} />`:null}`}function Yd({store:e,step:t}){let o=de(()=>oe(`/stores/${encodeURIComponent(e)}/components/${t}/shadow`),[e,t]);return f`<${pe} state=${o} what="the comparison">${n=>f`
    <section aria-labelledby="shadow-title" class="report">
      <h2 id="shadow-title">${n.store} · ${n.step}</h2>
      <div class="row"><button type="button" onClick=${o.reload}>Refresh</button></div>
      ${o.error?f`<${$e} error=${o.error} />`:null}
      <dl class="facts">
        <dt>Active</dt><dd><${Ie} value=${n.active} /></dd>
        <dt>Candidate</dt><dd>${n.candidate?f`<${Ie} value=${n.candidate} />`:f`none attached: set one on the <a href=${`#/stores/${encodeURIComponent(n.store)}`}>store</a>`}</dd>
        <dt>Since</dt><dd>${ae(n.since)}</dd>
        <dt>Compared</dt><dd>${n.charges} charges</dd>
        <dt>Changed</dt><dd>${n.changed} (${Qn(qd(n))} of the charges)</dd>
        <dt>Unchanged</dt><dd>${n.unchanged}</dd>
        <dt>Candidate errors</dt><dd>${n.errors}</dd>
        <${Ur} fee=${n.feeDeltaCentavos} net=${n.netDeltaCentavos} />
      </dl>
      <p class="muted">The deltas are the candidate's minus the active version's, summed over the compared charges both resolved.</p>
      <${Hr} before=${n.providersBefore} after=${n.providersAfter}
        title="Charges per provider, active and candidate" names=${["active","candidate"]}
        empty="No compared charge to chart per provider yet." />
      ${Array.isArray(n.series)&&n.series.length?f`<${Mo} title="Compared charges over time" points=${n.series} span=${Jd(n)}
            series=${[{key:"charges",label:"charges"},{key:"changed",label:"changed"},{key:"errors",label:"errors"}]} />`:f`<p class="muted">No comparisons over time yet.</p>`}
      <${Ro} title="Changes by kind" counts=${n.changesByKind} />
      <${Ro} title="Candidate errors by kind" counts=${n.errorsByKind} />
      <h3>Latest differences</h3>
      ${n.recent.length===0?f`<p class="muted">No difference recorded.</p>`:f`<div class="scroll"><table>
            <thead><tr><th scope="col">Payment</th><th scope="col">When</th><th scope="col">What changed</th><th scope="col">Active</th><th scope="col">Candidate</th></tr></thead>
            <tbody>${n.recent.map(l=>f`<tr>
              <th scope="row"><a href=${`#/payments/${l.paymentIntentId}`}><code title=${l.paymentIntentId}>…${l.paymentIntentId.slice(-12)}</code></a></th>
              <td>${ae(l.at)}</td><td>${l.kinds.join(", ")}</td><td>${Dn(l.before)}</td><td>${Dn(l.after)}</td>
            </tr>`)}</tbody>
          </table></div>`}
    </section>`}<//>`}function qd(e){return typeof e.changedShare=="number"?e.changedShare:e.charges?e.changed/e.charges:0}function Jd(e){if(!e.bucketSeconds)return;let t=e.series[0].at,o=Date.parse(e.series[e.series.length-1].at)+e.bucketSeconds*1e3;return[t,new Date(o).toISOString()]}function Oi(){let e=de(async()=>{let[t,o]=await Promise.all([oe("/providers"),oe("/gateways")]);return{providers:t,gateways:o}},[]);return f`<h1>Providers</h1>
    <${pe} state=${e} what="the providers">${({providers:t,gateways:o})=>f`
      ${t.length===0?f`<p class="muted">No provider is configured.</p>`:null}
      <div class="cards">${t.map(n=>f`<article class="card" aria-labelledby=${`provider-${n.code}`}>
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
        <tbody>${o.map(n=>f`<tr>
          <th scope="row"><code>${n.gatewayAlias}</code></th><td>${n.providerCode}</td><td>${n.releaseClass}</td>
          <td>${Qd(n.feeTerms)}</td>
          <td><span class=${`badge ${n.active?"ok":"off"}`}>${n.active?"active":"inactive"}</span></td>
          <td>${gl(n.health)}</td>
        </tr>`)}</tbody>
      </table></div>`}<//>`}function Qd(e){if(!e)return"—";let t=e.maxFeeCentavos===null||e.maxFeeCentavos===void 0?"no cap":`cap ${lt(e.maxFeeCentavos)}`;return`${(e.mdrBps/100).toFixed(2)} % + ${lt(e.fixedCentavos)}, min ${lt(e.minFeeCentavos)}, ${t}`}function gl(e){if(!e)return f`<span class="muted">not reported</span>`;let t=e.successRateBps!==void 0?`${(e.successRateBps/100).toFixed(1)} % ok`:null,o=e.latencyP50Ms!==void 0?`p50 ${e.latencyP50Ms} ms`:null;return f`<span class=${`badge ${e.available?"ok":"off"}`}>${e.available?"available":"unavailable"}</span>
    ${[t,o,e.samples!==void 0?`${e.samples} calls`:null].filter(Boolean).join(" · ")}`}var Zd=["SHADOW_ONLY","PENDING","SUCCEEDED","FAILED","CANCELED"],Vi={IMMEDIATE:"Immediate",DUE_DATE:"Due date",RECURRING:"Recurring"},Wr={reference:"",store:"",merchant:"",status:"",kind:"",createdFrom:"",createdTo:""};function zi(){let[e,t]=F(Wr),[o,n]=F(Wr),[l,r]=F([]),a=de(async()=>{let $={...o,limit:20};for(let g of["createdFrom","createdTo"])$[g]&&($[g]=new Date($[g]).toISOString());let p=await oe("/payment-intents",$);return r([]),p},[JSON.stringify(o)]),c=Ne(),u=$=>p=>t({...e,[$]:p.target.value}),m=[...a.data??[],...l];return f`<h1>Payments</h1>
    <${Br} />
    <form class="filters" role="search" aria-label="Search payments" onSubmit=${$=>{$.preventDefault(),Wr=e,n({...e})}}>
      <label>Reference <input value=${e.reference} onInput=${u("reference")} /></label>
      <label>Store <input value=${e.store} onInput=${u("store")} /></label>
      <label>Merchant <input value=${e.merchant} onInput=${u("merchant")} /></label>
      <label>Status
        <select value=${e.status} onChange=${u("status")}>
          <option value="">any</option>
          ${Zd.map($=>f`<option value=${$}>${$}</option>`)}
        </select>
      </label>
      <label>Kind
        <select value=${e.kind} onChange=${u("kind")}>
          <option value="">All</option>
          ${Object.entries(Vi).map(([$,p])=>f`<option value=${$}>${p}</option>`)}
        </select>
      </label>
      <label>Created from <input type="datetime-local" value=${e.createdFrom} onInput=${u("createdFrom")} /></label>
      <label>Created before <input type="datetime-local" value=${e.createdTo} onInput=${u("createdTo")} /></label>
      <button type="submit" class="primary">Search</button>
    </form>
    <${$e} error=${c.error} />
    <${pe} state=${a} what="payments">${()=>f`
      ${m.length===0?f`<p role="status">No payment matches.</p>`:f`<${bl} intents=${m} caption=${`${m.length} payments, newest first`} />`}
      ${m.length&&m.length%20===0?f`<button type="button" disabled=${c.busy} onClick=${async()=>{let $={...o,limit:20,after:m[m.length-1].paymentIntentId};for(let g of["createdFrom","createdTo"])$[g]&&($[g]=new Date($[g]).toISOString());let p=await c.run(()=>oe("/payment-intents",$));p&&r([...l,...p])}}>More payments</button>`:null}`}<//>`}function bl({intents:e,caption:t,extra:o}){return f`<div class="scroll"><table>
    <caption>${t}</caption>
    <thead><tr><th scope="col">Reference</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col">Store</th><th scope="col">Provider</th><th scope="col">Created</th>
      ${o?f`<th scope="col">${o.label}</th>`:null}</tr></thead>
    <tbody>${e.map(n=>f`<tr>
      <th scope="row"><a href=${`#/payments/${n.paymentIntentId}`}>${n.reference||n.paymentIntentId}</a></th>
      <td>${Gt(n.amount)}</td><td><span class=${`badge ${n.status}`}>${n.status}</span></td>
      <td>${n.store?.code}</td><td>${n.routing?.providerCode??n.provider?.code??"—"}</td><td>${ae(n.createdAt)}</td>
      ${o?f`<td>${o.cell(n)}</td>`:null}
    </tr>`)}</tbody>
  </table></div>`}var Xd={paymentIntentId:"payment id",txid:"txid",endToEndId:"endToEndId"};function Br(){let[e,t]=F(""),[o,n]=F(""),l=Ne();async function r(c){c.preventDefault();let u=e.trim();if(!u)return;n(u);let m=await l.run(()=>oe("/lookup",{q:u}));m?.length===1&&(location.hash=`#/payments/${encodeURIComponent(m[0].paymentIntentId)}`)}let a=l.result;return f`<form class="row" role="search" aria-label="Find a payment" onSubmit=${r}>
      <label>Payment id, txid or endToEndId
        <input type="search" value=${e} onInput=${c=>t(c.target.value)} maxLength="64" size="40"
          autocomplete="off" spellcheck="false" aria-describedby="lookup-help" />
      </label>
      <button type="submit" disabled=${l.busy}>Find</button>
      <span id="lookup-help" class="muted">One match opens the payment.</span>
    </form>
    <${$e} error=${l.error} />
    ${a?.length===0?f`<p role="status">Nothing matches <code>${o}</code>: no payment has it as its id, txid or endToEndId.</p>`:null}
    ${a?.length>1?f`<${bl} intents=${a} caption=${`${a.length} payments match ${o}`}
      extra=${{label:"Matched by",cell:c=>Xd[c.matchedBy]??c.matchedBy}} />`:null}`}function Ui({id:e,me:t}){let o=de(()=>oe(`/payment-intents/${e}`),[e]),n=de(()=>oe(`/payment-intents/${e}/trace`),[e]),l=o.data?.reference;return f`<h1>Payment ${l?f`<q>${l}</q>`:f`<code>${e}</code>`}</h1>
    <p><a href="#/payments">Back to the search</a></p>
    <${pe} state=${o} what="the payment">${r=>f`<${tf} intent=${r} />
      ${r.kind==="DUE_DATE"?f`<${lf} intent=${r} />`:null}`}<//>
    <section aria-labelledby="trace-title">
      <h2 id="trace-title">Decision trace</h2>
      <${pe} state=${n} what="the trace">${r=>f`<${rf} trace=${r} />`}<//>
    </section>
    <${ef} id=${e} />
    <${af} id=${e} me=${t} />`}function ef({id:e}){let t=de(()=>oe(`/payment-intents/${e}/refunds`),[e]);return f`<section aria-labelledby="refunds-title">
    <h2 id="refunds-title">Refunds</h2>
    <${pe} state=${t} what="the refunds">${o=>o.length===0?f`<p class="muted">No refund of this payment.</p>`:f`<div class="scroll"><table>
          <caption>The refunds of this payment, oldest first</caption>
          <thead><tr><th scope="col">Refund</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col">Reason</th><th scope="col">Created</th></tr></thead>
          <tbody>${o.map(n=>f`<tr>
            <th scope="row"><code>${n.refundId}</code></th><td>${Gt(n.amount)}</td>
            <td><span class=${`badge ${n.status}`}>${n.status}</span></td><td>${n.reason??""}</td><td>${ae(n.createdAt)}</td>
          </tr>`)}</tbody>
        </table></div>`}<//>
  </section>`}function tf({intent:e}){return f`<section aria-labelledby="intent-title">
    <h2 id="intent-title">The intent</h2>
    <dl class="facts">
      <dt>Id</dt><dd><code>${e.paymentIntentId}</code></dd>
      <dt>Status</dt><dd><span class=${`badge ${e.status}`}>${e.status}</span></dd>
      <dt>Kind</dt><dd>${Vi[e.kind]??e.kind??"—"}</dd>
      <dt>Amount</dt><dd>${Gt(e.amount)}${e.amountRefunded?` (refunded ${Gt(e.amountRefunded)})`:""}</dd>
      <dt>Store</dt><dd>${e.store?.code} · ${e.merchant}</dd>
      <dt>Route</dt><dd>${e.routing?`${e.routing.policy??""} → ${e.routing.gatewayAlias??"—"} (${e.routing.releaseClass??""})`:"—"}</dd>
      <dt>Fee / net</dt><dd>${e.economics?`${Gt(e.economics.feeAmount)} / ${Gt(e.economics.netAmount)}, settles ${e.economics.settlementDate}`:"—"}</dd>
      <dt>At the PSP</dt><dd>${e.provider?f`${e.provider.code} <code>${e.provider.paymentId??"not paid yet"}</code>`:"—"}</dd>
      ${e.pix?.txid?f`<dt>txid</dt><dd><code>${e.pix.txid}</code></dd>`:null}
      ${e.failure?f`<dt>Failure</dt><dd><code>${e.failure.code}</code> ${e.failure.message}</dd>`:null}
      <dt>Created</dt><dd>${ae(e.createdAt)}</dd>
      ${e.completedAt?f`<dt>Completed</dt><dd>${ae(e.completedAt)}</dd>`:null}
    </dl>
  </section>`}function _l(e,t){return String(e).startsWith("PERCENT")?`${t} %`:Gt(t)}function Hi(e){return String(e).replace(/^(PERCENT|AMOUNT|FIXED)_?/,"").toLowerCase().replace(/_/g," ")}function Fi(e){return`${_l(e.type,e.value)} (${e.type})`}function nf(e){return`${_l(e.type,e.value)} ${Hi(e.type)}`}function of(e){return Array.isArray(e.dates)?e.dates.map(t=>`${_l(e.type,t.value)} until ${t.date}`).join("; "):`${_l(e.type,e.value)} ${Hi(e.type)}`}function lf({intent:e}){let t=e.amountComponents,o=n=>Gt(n??0);return f`<section aria-labelledby="invoice-title">
    <h2 id="invoice-title">Invoice</h2>
    <dl class="facts">
      <dt>Due date</dt><dd>${e.dueDate??"—"}</dd>
      <dt>Payable after it</dt><dd>${e.daysAfterDue??0} days</dd>
      ${e.fine?f`<dt>Fine</dt><dd>${Fi(e.fine)}</dd>`:null}
      ${e.interest?f`<dt>Interest</dt><dd>${nf(e.interest)}</dd>`:null}
      ${e.abatement?f`<dt>Abatement</dt><dd>${Fi(e.abatement)}</dd>`:null}
      ${e.discount?f`<dt>Discount</dt><dd>${of(e.discount)}</dd>`:null}
      ${e.amountPaid!==void 0&&e.amountPaid!==null?f`<dt>Paid</dt><dd>${Gt(e.amountPaid)}${t?` = original ${o(t.original)} + fine ${o(t.fine)} + interest ${o(t.interest)} − abatement ${o(t.abatement)} − discount ${o(t.discount)}`:""}</dd>`:null}
    </dl>
  </section>`}function jr({trace:e}){let t=Ae.map(l=>e[l]).filter(Boolean),o=Array.isArray(e.routes)?e.routes:[],n=e.stopped;return f`
    <ol class="trace">${t.map(l=>f`<li>
      <h3>${l.step}</h3>
      <p>
        Version <${Ie} value=${l.component} /> · fuel ${l.fuelUsed} · ${l.durationUs} µs
        ${l.error?f` · <strong>error</strong> <code>${l.error.code??JSON.stringify(l.error)}</code>`:""}
      </p>
      ${l.log?f`<pre class="log" tabindex="0">${l.log}</pre>`:null}
      <${Dt} value=${l.output} summary=${`${l.step} output`} />
      <${Dt} value=${l.input} summary=${`${l.step} input`} />
    </li>`)}</ol>
    ${n?f`<p role="note">Stopped at the <strong>${n.step}</strong> step (version <${Ie} value=${n.component} />):
      <code>${n.code}</code> ${n.message}</p>
      ${n.input!==void 0?f`<${Dt} value=${n.input} summary=${`${n.step} input`} />`:null}`:null}
    ${o.length?f`<h3>Routes, in order</h3><div class="scroll"><table>
      <caption>The gateways the chain ranked for this charge</caption>
      <thead><tr><th scope="col">#</th><th scope="col">Gateway</th><th scope="col">Provider</th><th scope="col">Release class</th><th scope="col">Fee</th><th scope="col">Net</th><th scope="col">Why</th></tr></thead>
      <tbody>${o.map((l,r)=>f`<tr>
        <td>${r+1}</td><th scope="row"><code>${l.gateway?.gatewayAlias}</code></th><td>${l.gateway?.providerCode}</td>
        <td>${l.gateway?.releaseClass}</td><td>${lt(l.quote?.feeCentavos)}</td><td>${lt(l.quote?.netCentavos)}</td><td>${l.gateway?.reason??""}</td>
      </tr>`)}</tbody>
    </table></div>`:null}`}function rf({trace:e}){let t=Array.isArray(e.pspCalls)?e.pspCalls:[];return f`<${jr} trace=${e} />
    <h3>PSP calls</h3>
    ${t.length===0?f`<p class="muted">No PSP was called for this payment.</p>`:f`<div class="scroll"><table>
          <caption>The calls made to PSPs for this payment, in order</caption>
          <thead><tr><th scope="col">When</th><th scope="col">Provider</th><th scope="col">Gateway</th><th scope="col">Call</th><th scope="col">Outcome</th><th scope="col">Took</th><th scope="col">Error</th></tr></thead>
          <tbody>${t.map(o=>f`<tr>
            <td>${ae(new Date(o.at).toISOString())}</td><td>${o.providerCode}</td><td>${o.gatewayAlias??"—"}</td>
            <td><code>${o.operation}</code></td><td>${o.outcome}</td><td>${o.durationMs} ms</td><td>${o.error??""}</td>
          </tr>`)}</tbody>
        </table></div>`}
    <${Dt} value=${e} summary="The whole trace as JSON" />`}function af({id:e,me:t}){let o=de(()=>oe(`/payment-intents/${e}/deliveries`),[e]),n=Ne();return f`<section aria-labelledby="deliveries-title">
    <h2 id="deliveries-title">Webhook deliveries</h2>
    <${$e} error=${n.error} />
    ${n.result?f`<p role="status">The delivery is being sent again.</p>`:null}
    ${f`<${pe} state=${o} what="the deliveries">${l=>l.length?f`<ul class="cards">${l.map(r=>f`<li class="card">
            <h3>${r.event} <span class=${`badge ${r.status}`}>${r.status}</span></h3>
            <p>Delivery <code>${r.deliveryId}</code> to endpoint <code>${r.endpointId}</code></p>
            ${r.nextAttemptAt?f`<p>Next attempt ${ae(r.nextAttemptAt)}</p>`:null}
            <div class="scroll"><table>
              <caption>Attempts</caption>
              <thead><tr><th scope="col">#</th><th scope="col">When</th><th scope="col">HTTP</th><th scope="col">Took</th><th scope="col">Error</th></tr></thead>
              <tbody>${r.attempts.map(a=>f`<tr>
                <td>${a.attempt}</td><td>${ae(a.attemptedAt)}</td><td>${a.httpStatus??"—"}</td>
                <td>${a.durationMs} ms</td><td>${a.error??""}</td>
              </tr>`)}</tbody>
            </table></div>
            ${Pe(t,"operator")?f`<button type="button" disabled=${n.busy}
              onClick=${()=>n.run(()=>Bt(`/webhook-deliveries/${r.deliveryId}/resend`)).then(a=>a!==void 0&&o.reload())}>
              Resend ${r.event}</button>`:null}
          </li>`)}</ul>`:f`<p class="muted">No webhook delivery for this payment.</p>`}<//>`}
  </section>`}function Wi({me:e}){let t=de(()=>jt("/operators",{},r=>r.id),[]),o=Ne(),[n,l]=F(null);return f`<h1>Operators</h1>
    ${Pe(e,"admin")?f`<${sf} onCreated=${t.reload} />`:null}
    <${$e} error=${o.error} />
    <${pe} state=${t} what="the operators">${r=>f`<div class="scroll"><table>
      <caption>${r.length} operators</caption>
      <thead><tr><th scope="col">Name</th><th scope="col">Id</th><th scope="col">Role</th><th scope="col">Created</th><th scope="col">Status</th>
        ${Pe(e,"admin")?f`<th scope="col"><span class="visually-hidden">Actions</span></th>`:null}</tr></thead>
      <tbody>${r.map(a=>{let c=!!a.revokedAt||a.status==="REVOKED"||a.revoked===!0;return f`<tr>
          <th scope="row">${a.name}</th><td><code>${a.id}</code></td><td>${a.role}</td><td>${ae(a.createdAt)}</td>
          <td>${c?f`<span class="badge off">revoked ${ae(a.revokedAt)}</span>`:f`<span class="badge ok">active</span>`}</td>
          ${Pe(e,"admin")?f`<td>${c||a.id===e.id?null:f`<button type="button" onClick=${()=>l(a)}>Revoke ${a.name}</button>`}</td>`:null}
        </tr>`})}</tbody>
    </table></div>`}<//>
    <${un} open=${!!n} title=${`Revoke ${n?.name??""}?`} confirmLabel="Revoke"
      onCancel=${()=>l(null)}
      onConfirm=${async()=>{let r=n;l(null),await o.run(()=>Bt(`/operators/${encodeURIComponent(r.id)}/revoke`))!==void 0&&t.reload()}}>Their token stops working at once.<//>`}function sf({onCreated:e}){let[t,o]=F(""),[n,l]=F("viewer"),r=Ne();return f`<section aria-labelledby="new-operator">
    <h2 id="new-operator">Add an operator</h2>
    <form class="row" onSubmit=${async a=>{a.preventDefault(),await r.run(()=>Bt("/operators",{name:t.trim(),role:n}))!==void 0&&(o(""),e())}}>
      <label>Name <input value=${t} onInput=${a=>o(a.target.value)} required maxlength="120" /></label>
      <label>Role
        <select value=${n} onChange=${a=>l(a.target.value)}>
          ${tl.map(a=>f`<option value=${a}>${a}</option>`)}
        </select>
      </label>
      <button type="submit" class="primary" disabled=${r.busy}>Add the operator</button>
    </form>
    <${$e} error=${r.error} />
    ${r.result?.token?f`<div class="notice" role="status">
      <p>The token of <strong>${r.result.name}</strong> (${r.result.role}), shown this once: hand it over now.</p>
      <p><label>Token <input readonly value=${r.result.token} onFocus=${a=>a.target.select()} /></label></p>
    </div>`:null}
  </section>`}function Bi(){let[e,t]=F({operator:"",action:"",target:"",since:"",until:""}),[o,n]=F(e),[l,r]=F([]),a=Ne(),c=(p,g)=>{let _={...p,limit:50,after:g};for(let S of["since","until"])_[S]&&(_[S]=new Date(_[S]).toISOString());return _},u=de(async()=>(r([]),oe("/audit-events",c(o))),[JSON.stringify(o)]),m=p=>g=>t({...e,[p]:g.target.value}),$=[...u.data??[],...l];return f`<h1>Audit trail</h1>
    <form class="filters" role="search" aria-label="Filter the audit trail" onSubmit=${p=>{p.preventDefault(),n({...e})}}>
      <label>Operator id <input value=${e.operator} onInput=${m("operator")} placeholder="bootstrap or an operator's id" /></label>
      <label>Action <input value=${e.action} onInput=${m("action")} placeholder="resource.verb, e.g. store.update" /></label>
      <label>Target <input value=${e.target} onInput=${m("target")} /></label>
      <label>Since <input type="datetime-local" value=${e.since} onInput=${m("since")} /></label>
      <label>Until <input type="datetime-local" value=${e.until} onInput=${m("until")} /></label>
      <button type="submit" class="primary">Filter</button>
    </form>
    <${$e} error=${a.error} />
    <${pe} state=${u} what="the audit trail">${()=>f`
      ${$.length===0?f`<p role="status">No event matches.</p>`:f`<div class="scroll"><table>
        <caption>${$.length} events, newest first</caption>
        <thead><tr><th scope="col">When</th><th scope="col">Operator</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">Change</th></tr></thead>
        <tbody>${$.map(p=>f`<tr>
          <td>${ae(p.at)}</td><td>${p.operator?.name??""} <code>${p.operator?.id??""}</code></td><td><code>${p.action}</code></td><td><code>${p.target}</code></td>
          <td>${p.before!==void 0||p.after!==void 0?f`<${Dt} value=${{before:p.before,after:p.after}} summary="before and after" />`:""}</td>
        </tr>`)}</tbody>
      </table></div>`}
      ${$.length&&$.length%50===0?f`<button type="button" disabled=${a.busy} onClick=${async()=>{let p=await a.run(()=>oe("/audit-events",c(o,$[$.length-1].eventId)));p&&r([...l,...p])}}>Older events</button>`:null}`}<//>`}var cf=[1,6,24,72,168],Gr=24,Gi=3,Kr=100;function Ki(){let[e,t]=F(Gr),o=de(()=>oe("/overview",{hours:e}),[e]),n=de(()=>oe("/providers"),[]),l=de(()=>oe("/webhook-deliveries",{state:"failing",limit:Kr}),[]),r=()=>{o.reload(),n.reload(),l.reload()},a=ji(e);return f`<h1>Is anything on fire?</h1>
    <${uf} overview=${o} providers=${n} failing=${l} span=${a} />
    <form class="row" aria-label="Which window" onSubmit=${c=>c.preventDefault()}>
      <label>Hours
        <select value=${e} onChange=${c=>{Gr=Number(c.target.value),t(Gr)}}>
          ${cf.map(c=>f`<option value=${c}>${ji(c)}</option>`)}
        </select>
      </label>
      <button type="button" onClick=${r} disabled=${o.loading}>Refresh</button>
    </form>
    <${Br} />
    <${pe} state=${o} what="the overview">${c=>f`
      <${df} overview=${c} span=${a} />
      <${hf} overview=${c} />`}<//>
    <section aria-labelledby="psp-health">
      <h2 id="psp-health">PSP health</h2>
      <${pe} state=${n} what="the providers">${c=>f`<${mf} providers=${c} />`}<//>
    </section>
    ${o.data?f`
      <${$f} pending=${o.data.pendingLive} />
      <${_f} stores=${o.data.flaggedStores} />`:null}`}function ji(e){return e===1?"the last hour":e%24===0?e===24?"the last 24 hours":`the last ${e/24} days`:`the last ${e} hours`}function Yi(e){return["PENDING","SUCCEEDED","FAILED","CANCELED"].reduce((t,o)=>t+(e?.[o]??0),0)}function vl(e,t){let o=Yi(e);return o?(e?.[t]??0)/o:null}function uf({overview:e,providers:t,failing:o,span:n}){if(e.error||t.error||o.error)return f`<section class="verdict warn" aria-label="Verdict">
      <p><strong>Unknown:</strong> the overview, the providers or the failing webhook deliveries could not be read.</p>
      <${$e} error=${o.error} />
    </section>`;if(!e.data||!t.data||!o.data)return f`<p class="muted" role="status">Checking the PSPs, the charges and the webhook deliveries…</p>`;let l=e.data,r=o.data,a=t.data.filter(p=>p.active&&p.health&&p.health.available===!1),c=(l.pendingLive?.byAge??[]).slice(Gi).reduce((p,g)=>p+g.count,0),u=l.totals?.byStatus?.FAILED??0,m=r.length>=Kr?`${Kr} or more`:`${r.length}`,$=[...a.map(p=>f`<a href="#/providers">PSP ${p.name} (<code>${p.code}</code>) is unavailable</a>`),c?f`${c} LIVE ${c===1?"charge has":"charges have"} been pending for over 2 hours (the oldest are listed below)`:null,u?f`${u} LIVE ${u===1?"charge":"charges"} failed in ${n} (${Qn(vl(l.totals.byStatus,"FAILED"))} of the LIVE charges)`:null,r.length?f`<a href="#/deliveries">${m} webhook ${r.length===1?"delivery is":"deliveries are"} failing</a>`:null].filter(Boolean);return $.length?f`<section class="verdict warn" aria-label="Verdict">
    <p><strong>Maybe: ${$.length===1?"this needs":"these need"} a look.</strong></p>
    <ul>${$.map(p=>f`<li>${p}</li>`)}</ul>
  </section>`:f`<section class="verdict ok" aria-label="Verdict">
      <p><strong>No.</strong> Every PSP that reports its health is available, no LIVE charge has been pending for over 2 hours,
        none failed in ${n} and no webhook delivery is failing.</p>
    </section>`}function en({label:e,children:t}){return f`<div class="tile"><dt>${e}</dt><dd>${t}</dd></div>`}function df({overview:e,span:t}){let o=e.totals?.byStatus??{};return f`<section aria-labelledby="totals-title">
    <h2 id="totals-title">Totals, ${t}</h2>
    <p class="muted">Charges created from ${ae(e.from)} to ${ae(e.to)}. The rates are shares of the LIVE charges
      (${Yi(o)}); a SHADOW store's charges stop at the decision.</p>
    <dl class="tiles">
      <${en} label="Charges">${e.totals?.charges??0}<//>
      <${en} label="Amount">${lt(e.totals?.amountCentavos??0)}<//>
      <${en} label="Success rate">${Qn(vl(o,"SUCCEEDED"))}<//>
      <${en} label="Failed rate">${Qn(vl(o,"FAILED"))}<//>
      <${en} label="Succeeded">${o.SUCCEEDED??0}<//>
      <${en} label="Failed">${o.FAILED??0}<//>
      <${en} label="Pending">${o.PENDING??0}<//>
      <${en} label="Canceled">${o.CANCELED??0}<//>
      <${en} label="Shadow only">${o.SHADOW_ONLY??0}<//>
    </dl>
  </section>`}function ff(e){let t=(e.bucketSeconds||3600)*1e3,o=new Map((e.series??[]).map(a=>[Date.parse(a.at),a])),n=Math.floor(Date.parse(e.from)/t)*t,l=Date.parse(e.to),r=new Set(o.keys());if(Number.isFinite(n)&&Number.isFinite(l)&&(l-n)/t<=1e3)for(let a=n;a<l;a+=t)r.add(a);return[...r].sort((a,c)=>a-c).map(a=>{let c=o.get(a),u=c?.byStatus??{},m=$=>{let p=vl(u,$);return p===null?null:Math.round(p*1e3)/10};return{at:new Date(a).toISOString(),charges:c?.charges??0,succeeded:u.SUCCEEDED??0,failed:u.FAILED??0,pending:u.PENDING??0,shadow:u.SHADOW_ONLY??0,successRate:m("SUCCEEDED"),failedRate:m("FAILED")}})}function pf(e){return!e||e===3600?"hour":e%3600===0?`${e/3600} hours`:`${Math.round(e/60)} minutes`}function hf({overview:e}){let t=ff(e),o=pf(e.bucketSeconds);return f`<section aria-labelledby="volume-title">
    <h2 id="volume-title">Volume and outcomes</h2>
    ${(e.series??[]).length===0?f`<p class="muted">No charge in this window.</p>`:f`<div class="charts">
          <${Mo} title=${`Charges per ${o}`} points=${t} span=${[e.from,e.to]}
            series=${[{key:"charges",label:"charges"},{key:"succeeded",label:"succeeded"},{key:"failed",label:"failed"},{key:"pending",label:"pending"}]} />
          <${Mo} title=${`Success and failed rates per ${o} (% of LIVE charges)`} points=${t} span=${[e.from,e.to]}
            unit=" %" max=${100}
            series=${[{key:"successRate",label:"success rate"},{key:"failedRate",label:"failed rate"}]} />
        </div>`}
  </section>`}function mf({providers:e}){return e.length?f`<div class="scroll"><table>
    <caption>Each PSP's recent calls, as the <a href="#/providers">Providers</a> page shows them</caption>
    <thead><tr><th scope="col">Provider</th><th scope="col">Status</th><th scope="col">Health</th></tr></thead>
    <tbody>${e.map(t=>f`<tr>
      <th scope="row">${t.name} <code>${t.code}</code></th>
      <td><span class=${`badge ${t.active?"ok":"off"}`}>${t.active?"active":"inactive"}</span></td>
      <td>${gl(t.health)}</td>
    </tr>`)}</tbody>
  </table></div>`:f`<p class="muted">No provider is configured: every store decides in SHADOW only.</p>`}function $f({pending:e}){let t=e?.byAge??[],o=e?.oldest??[];return f`<section aria-labelledby="pending-title">
    <h2 id="pending-title">Pending LIVE charges</h2>
    <p>${e?.count??0} LIVE ${e?.count===1?"charge is":"charges are"} waiting for the payer or the PSP, whenever created.</p>
    <div class="scroll"><table class="narrow">
      <caption>Pending LIVE charges by age</caption>
      <thead><tr><th scope="col">Pending for</th><th scope="col">Charges</th></tr></thead>
      <tbody>${t.map((n,l)=>f`<tr class=${l>=Gi&&n.count?"alarm":void 0}>
        <th scope="row">${n.label}</th><td>${n.count}</td>
      </tr>`)}</tbody>
    </table></div>
    ${o.length?f`<${bl} intents=${o} caption=${`The ${o.length} oldest, oldest first`}
          extra=${{label:"Pending for",cell:n=>gf(n.createdAt)}} />`:null}
  </section>`}function gf(e){let t=Date.now()-Date.parse(e);if(!Number.isFinite(t))return"—";let o=Math.max(0,Math.floor(t/6e4));if(o<1)return"under a minute";if(o<120)return`${o} min`;let n=Math.floor(o/60);return n<48?`${n} h`:`${Math.floor(n/24)} days`}function _f({stores:e}){return f`<section aria-labelledby="flagged-title">
    <h2 id="flagged-title">Stores trying a new version</h2>
    ${e?.length?f`<div class="scroll"><table>
          <caption>Stores running a canary or a shadow candidate</caption>
          <thead><tr><th scope="col">Store</th><th scope="col">Merchant</th><th scope="col">Mode</th><th scope="col">Canaries</th><th scope="col">Shadow candidates</th></tr></thead>
          <tbody>${e.map(t=>f`<tr>
            <th scope="row"><a href=${`#/stores/${encodeURIComponent(t.store)}`}>${t.store}</a></th>
            <td>${t.merchant}</td><td><span class=${`badge ${t.mode}`}>${t.mode}</span></td>
            <td>${(t.canaries??[]).length?f`<ul class="plain">${t.canaries.map(o=>f`<li>
              ${o.step} <${Ie} value=${o.version} /> on ${o.basisPoints/100} % since ${ae(o.startedAt)}
            </li>`)}</ul>`:f`<span class="muted">none</span>`}</td>
            <td>${(t.candidates??[]).length?f`<ul class="plain">${t.candidates.map(o=>f`<li>
              ${o.step} <${Ie} value=${o.version} /> since ${ae(o.since)}:${" "}
              <a href=${`#/shadow/${encodeURIComponent(t.store)}/${o.step}`}>${`${t.store} ${o.step} comparison`}</a>
            </li>`)}</ul>`:f`<span class="muted">none</span>`}</td>
          </tr>`)}</tbody>
        </table></div>`:f`<p class="muted">No store runs a canary or a shadow candidate.</p>`}
  </section>`}var yl=20,wl="";function Ji({me:e}){let[t,o]=F(wl),[n,l]=F(wl),[r,a]=F(0),c=Ne(),[u,m]=F(null),[$,p]=F(null);async function g(){let _=u;m(null),p(_),await c.run(()=>Bt(`/webhook-deliveries/${_.deliveryId}/resend`))!==void 0&&a(x=>x+1)}return f`<h1>Webhook deliveries</h1>
    <p>The events pixgate sends to merchants' webhook endpoints, every merchant's. Each one links to its payment, where
      its attempts are listed one by one.</p>
    <form class="filters" role="search" aria-label="Filter the deliveries" onSubmit=${_=>{_.preventDefault(),wl=t.trim(),l(wl)}}>
      <label>Merchant <input value=${t} onInput=${_=>o(_.target.value)} placeholder="every merchant" /></label>
      <button type="submit" class="primary">Filter</button>
    </form>
    <${$e} error=${c.error} />
    ${c.busy?f`<p role="status">Sending again…</p>`:null}
    ${c.result&&$?f`<p role="status">The <code>${$.event}</code> delivery to ${$.endpointName} is being sent again.</p>`:null}
    <${qi} id="failing" title="Failing" state="failing" merchant=${n} round=${r} me=${e} onResend=${m}
      caption="exhausted, a failed test, or retrying after a failed attempt"
      none="No delivery is failing." />
    <${qi} id="recent" title="All recent" merchant=${n} round=${r} me=${e} onResend=${m}
      none="No webhook delivery yet." />
    <${un} open=${!!u} title="Send this delivery again?" confirmLabel="Resend"
      onCancel=${()=>m(null)} onConfirm=${g}>${u?f`The <code>${u.event}</code> event goes to
        ${u.endpointName} (<code>${u.endpointUrl}</code>) again, with the same event id: a receiver that keeps
        the ids it saw handles it once.`:null}<//>`}function qi({id:e,title:t,state:o,merchant:n,round:l,me:r,onResend:a,caption:c,none:u}){let[m,$]=F([]),[p,g]=F(!1),_=Ne(),S=de(async()=>{let y=await oe("/webhook-deliveries",{state:o,merchant:n,limit:yl});return $([]),g(y.length<yl),y},[o,n,l]),x=[...S.data??[],...m];return f`<section aria-labelledby=${`deliveries-${e}`}>
    <h2 id=${`deliveries-${e}`}>${t}</h2>
    <${pe} state=${S} what=${`the ${t.toLowerCase()} deliveries`}>${()=>x.length===0?f`<p class="muted">${u}</p>`:f`<div class="scroll"><table>
          <caption>${x.length} ${x.length===1?"delivery":"deliveries"}${p?"":" so far"}, newest first${c?`: ${c}`:""}</caption>
          <thead><tr><th scope="col">Endpoint</th><th scope="col">Merchant</th><th scope="col">Event</th><th scope="col">Status</th>
            <th scope="col">Attempts</th><th scope="col">Last error</th><th scope="col">Payment</th><th scope="col">Created</th>
            ${Pe(r,"operator")?f`<th scope="col"><span class="visually-hidden">Actions</span></th>`:null}</tr></thead>
          <tbody>${x.map(y=>f`<tr>
            <th scope="row"><span title=${y.endpointUrl}>${y.endpointName}</span></th>
            <td>${y.merchant}</td><td class="nowrap"><code>${y.event}</code></td>
            <td><span class=${`badge ${y.status}`}>${y.status}</span>${y.nextAttemptAt?f`<br /><span class="muted">next ${ae(y.nextAttemptAt)}</span>`:null}</td>
            <td>${y.attemptCount}</td>
            <td>${y.lastError?f`<code>${y.lastError}</code>`:f`<span class="muted">none</span>`}</td>
            <td class="nowrap">${y.paymentIntentId?f`<a href=${`#/payments/${y.paymentIntentId}`}><code title=${y.paymentIntentId}>…${y.paymentIntentId.slice(-12)}</code></a>`:f`<span class="muted">none</span>`}</td>
            <td>${ae(y.createdAt)}</td>
            ${Pe(r,"operator")?f`<td><button type="button" onClick=${()=>a(y)}
              aria-label=${`Resend ${y.event} to ${y.endpointName}`}>Resend</button></td>`:null}
          </tr>`)}</tbody>
        </table></div>`}<//>
    <${$e} error=${_.error} />
    ${S.data&&!p?f`<button type="button" disabled=${_.busy} onClick=${async()=>{let y=await _.run(()=>oe("/webhook-deliveries",{state:o,merchant:n,limit:yl,after:x[x.length-1].deliveryId}));y&&($([...m,...y]),g(y.length<yl))}}>Load more ${t.toLowerCase()} deliveries</button>`:null}
  </section>`}var Qi=`{
  "amount": 129.90,
  "reference": "evaluate-0001",
  "description": "2 cafes e 1 pao de queijo",
  "payer": {
    "name": "Ana Souza",
    "taxId": "529.982.247-25",
    "email": "ana.souza@example.com"
  },
  "metadata": {"orderId": "evaluate-0001"}
}`,co={store:"",chosen:{policy:"",provider:"",economics:""},charge:Qi,idempotencyKey:""};function Zi({me:e,store:t}){let o=de(async()=>{let[n,...l]=await Promise.all([jt("/stores",{},r=>r.code),...Ae.map(r=>oe(`/components/${r}`))]);return{stores:n,versions:Object.fromEntries(Ae.map((r,a)=>[r,l[a]]))}},[]);return f`<h1>Evaluate a charge</h1>
    <p>Runs one charge through a store's chain, as the charge route would, and shows the decision and its trace.
      Nothing is stored and no PSP is called.</p>
    ${Pe(e,"tester")?f`<${pe} state=${o} what="stores and versions">${n=>f`<${bf} key=${t??""} initial=${t} ...${n} />`}<//>`:f`<p role="note">Your role (${e.role}) may not evaluate charges: a tester may.</p>`}`}function bf({stores:e,versions:t,initial:o}){let n=e.find(x=>x.code===o)??e.find(x=>x.code===co.store)??e[0],[l,r]=F(n?.code??""),[a,c]=F(co.chosen),[u,m]=F(co.charge),[$,p]=F(co.idempotencyKey),g=Ne(),_=e.find(x=>x.code===l)?.components??{};async function S(x){x.preventDefault(),co={store:l,chosen:a,charge:u,idempotencyKey:$},await g.run(()=>{let y;try{y=JSON.parse(u)}catch(C){throw new ct(0,"invalid_json",`The charge is not JSON: ${C.message}`,"charge")}if(y===null||typeof y!="object"||Array.isArray(y))throw new ct(0,"invalid_json","The charge must be a JSON object.","charge");let D=Object.fromEntries(Object.entries(a).filter(([,C])=>C)),w={store:l,components:D};$.trim()&&(w.idempotencyKey=$.trim());let E=`${JSON.stringify(w).slice(0,-1)},"charge":${u.trim()}}`;return Qt("POST","/evaluate",{body:new Blob([E]),contentType:"application/json"})})}return f`<form class="stack" onSubmit=${S} aria-label="The charge to evaluate">
      <label>Store
        <select value=${l} onChange=${x=>r(x.target.value)}>
          ${e.map(x=>f`<option value=${x.code}>${x.code} (${x.mode})</option>`)}
        </select>
      </label>
      <fieldset>
        <legend>Versions</legend>
        ${Ae.map(x=>f`<label>${x}
          <select value=${a[x]} onChange=${y=>c({...a,[x]:y.target.value})}>
            <option value="">the store's active (${vf(_[x])})</option>
            <option value="bundled">bundled</option>
            ${t[x].map(y=>f`<option value=${y.version}>${y.version.slice(0,12)} ${y.label?`${y.label} `:""}(${y.source})</option>`)}
          </select>
        </label>`)}
      </fieldset>
      <label class="wide"><span>Charge (JSON, as a merchant sends it, without <code>store</code>)</span>
        <textarea rows="14" spellcheck="false" value=${u} onInput=${x=>m(x.target.value)} aria-describedby="charge-help"></textarea>
      </label>
      <p id="charge-help" class="muted">Amount in reais with at most two decimals, a reference, a description and the
        payer (name, CPF or CNPJ, e-mail); metadata is optional.</p>
      <label>Idempotency-Key (optional)
        <input value=${$} onInput=${x=>p(x.target.value)} maxLength="200" size="48"
          placeholder="the store's canary arms as for this key" />
      </label>
      <div class="row">
        <button type="submit" class="primary" disabled=${g.busy||!l}>Evaluate</button>
        <button type="button" onClick=${()=>m(Qi)}>Reset the charge</button>
      </div>
    </form>
    <${$e} error=${g.error} />
    ${g.busy?f`<p role="status">Evaluating…</p>`:null}
    ${g.result?f`<${yf} evaluation=${g.result} store=${co.store} />`:null}`}function vf(e){return e?/^[0-9a-f]{64}$/.test(e)?e.slice(0,12):e:"none"}function yf({evaluation:e,store:t}){let o=e.outcome??{};return f`<section aria-labelledby="evaluation-title" class="report">
    <h2 id="evaluation-title">Decision for ${t}</h2>
    <dl class="facts">
      <dt>Outcome</dt><dd><span class=${`badge ${o.status==="resolved"?"ok":"off"}`}>${o.status}</span> ${Dn(o)}</dd>
      ${o.status==="resolved"?f`
        <dt>Policy</dt><dd><code>${o.policy}</code></dd>
        <dt>Provider</dt><dd>${o.providerCode}</dd>
        <dt>Fee / net</dt><dd>${lt(o.feeCentavos)} / ${lt(o.netCentavos)}, settles ${o.settlementDate}</dd>
        ${e.routes?.length?f`<dt>Routes</dt><dd>${e.routes.length}, tried in the order below by a LIVE charge</dd>`:null}`:f`<dt>Message</dt><dd>${o.message}</dd>`}
    </dl>
    ${e.canaries?.length?f`<h3>Canary arms</h3><ul>${e.canaries.map(n=>f`<li>
      ${n.step}: the ${n.arm==="canary"?"canary":"active version"} (canary <${Ie} value=${n.version} /> on ${n.percent} %)</li>`)}</ul>`:null}
    <h3>Trace</h3>
    <${jr} trace=${e.trace??{}} />
    <${Dt} value=${e} summary="The evaluation as JSON" />
  </section>`}var wf=[["overview","Overview"],["stores","Stores"],["components","Components"],["replay","Replay"],["shadow","Shadow"],["providers","Providers"],["payments","Payments"],["deliveries","Webhook deliveries"],["evaluate","Evaluate"],["operators","Operators"],["audit","Audit trail"]];function Xi(){let e=window.location.hash.replace(/^#\/?/,"").split("/").map(decodeURIComponent);return{section:e[0]||"overview",id:e[1]||null,sub:e[2]||null}}function Sf(){let[e,t]=F(Xi);return Ht(()=>{let o=()=>t(Xi());return window.addEventListener("hashchange",o),()=>window.removeEventListener("hashchange",o)},[]),e}function kf({onSignedIn:e,notice:t}){let[o,n]=F(null),[l,r]=F(!1),a=Wt(null);Ht(()=>{a.current?.focus(),performance.mark("console-interactive")},[]);async function c(u){u.preventDefault();let m=a.current.value.trim();if(!m){n(new ct(0,"missing_token","Enter an operator token."));return}r(!0),n(null);try{let $=await ir(m);Qa(m),a.current.value="",e($)}catch($){n($.status===401?new ct(401,$.code,"This token was not accepted: check it, or ask an admin for a new one."):$)}finally{r(!1)}}return f`<main id="main" class="signin">
    <form method="post" onSubmit=${c} aria-labelledby="signin-title">
      <h1 id="signin-title">Sign in to the pixgate console</h1>
      ${t?f`<p role="status">${t}</p>`:null}
      <label for="token">Operator token</label>
      <input id="token" ref=${a} type="password" autocomplete="off" spellcheck="false" required aria-describedby="token-help" />
      <p id="token-help" class="muted">
        Your operator token, or the instance's admin token. It stays in this tab only and is
        forgotten when the tab closes.
      </p>
      <button type="submit" class="primary" disabled=${l}>Sign in</button>
      <${$e} error=${o} />
    </form>
  </main>`}function xf({route:e,me:t}){switch(e.section){case"overview":return f`<${Ki} me=${t} />`;case"stores":return e.id?f`<${rs} code=${e.id} me=${t} />`:f`<${ls} me=${t} />`;case"components":return f`<${as} me=${t} />`;case"replay":return f`<${Ri} me=${t} />`;case"shadow":return f`<${Ni} me=${t} store=${e.id} step=${e.sub} />`;case"providers":return f`<${Oi} me=${t} />`;case"payments":return e.id?f`<${Ui} id=${e.id} me=${t} />`:f`<${zi} me=${t} />`;case"deliveries":return f`<${Ji} me=${t} />`;case"evaluate":return f`<${Zi} me=${t} store=${e.id} />`;case"operators":return f`<${Wi} me=${t} />`;case"audit":return f`<${Bi} me=${t} />`;default:return f`<h1>Not found</h1><p>No such section. <a href="#/overview">Go to the overview</a>.</p>`}}function Cf({me:e,onSignOut:t}){let o=Sf(),n=Wt(null),l=Wt(!0);return Ht(()=>{if(l.current){l.current=!1;return}n.current?.focus()},[o.section,o.id,o.sub]),f`
    <a class="skip" href="#/" onClick=${r=>{r.preventDefault(),n.current?.focus()}}>Skip to content</a>
    <header class="top">
      <span class="brand">pixgate</span>
      <nav aria-label="Sections">
        <ul>
          ${wf.map(([r,a])=>f`<li><a href=${`#/${r}`} aria-current=${o.section===r?"page":void 0}>${a}</a></li>`)}
        </ul>
      </nav>
      <div class="who">
        <span>${e.name} <span class="role">${e.role}</span></span>
        <button type="button" onClick=${t}>Sign out</button>
      </div>
    </header>
    <main id="main" ref=${n} tabindex="-1">
      <${xf} route=${o} me=${e} />
    </main>`}function Ef(){let[e,t]=F(null),[o,n]=F(!!ko()),[l,r]=F(null);return Ht(()=>{Za(()=>{el(),t(null),r("Your session ended (the token was revoked or is no longer valid). Sign in again.")});let a=ko();a&&ir(a).then(t,()=>el()).finally(()=>n(!1))},[]),o?f`<p role="status">Checking your session…</p>`:e?f`<${Cf} me=${e} onSignOut=${()=>{el(),t(null),r("Signed out.")}} />`:f`<${kf} notice=${l} onSignedIn=${a=>{r(null),t(a)}} />`}var ec=document.getElementById("app");ec.replaceChildren();Na(f`<${Ef} />`,ec);})();
