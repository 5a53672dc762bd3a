(()=>{var ye,Aa,Oc,sn,Yl,Jo,Pa,Yo,Ta,Kl,ql,Fc,yo=Symbol.for("pv"),Qo={},Zo=[],Uc=/^m(i|n|o|s|text|space)$/,Jl=Array.isArray,Ql=Zo.slice,kn=Object.assign;function Sn(e){e&&e.parentNode&&e.remove()}function Da(e,t,n){var o,l,r,a={},i=arguments.length;for(r in t)r=="key"?o=t[r]:r=="ref"&&typeof e!="function"?l=t[r]:a[r]=t[r];return i>2&&(a.children=i>3?Ql.call(arguments,2):n),_o(e,a,o,l,null)}function _o(e,t,n,o,l){var r={type:e,props:t,key:n,ref:o,__k:null,__:null,__b:0,__e:null,__c:null,constructor:yo,__v:l||++Aa,__i:-1,__u:0};return!l&&ye.vnode&&ye.vnode(r),r}function Xo(e){return e.children}function qo(e,t){this.props=e,this.context=t,this.__g=0}function cn(e,t){if(t==null)return e.__&&cn(e.__,e.__i+1);for(var n;t<e.__k.length;t++)if((n=e.__k[t])&&n.__e)return n.__e;return typeof e.type!="function"||e.props.__P?null:cn(e)}function Vc(e){var t,n=e.__v,o=n.__e,l=[],r=[],a=e.__P;a&&((t=kn({constructor:yo},n)).__v=n.__v+1,ye.vnode&&ye.vnode(t),Zl(a,t,n,e.__n,a.namespaceURI,32&n.__u?[o]:null,l,o||cn(n),32&n.__u,r),t.__v=n.__v,t.__.__k[t.__i]=t,Oa(l,t,r),n.__=n.__e=null,t.__e!=o&&Ia(t))}function Ia(e){if((e=e.__)&&e.__c&&!e.props.__P)return e.__e=null,e.__k.some(function(t){return t&&(e.__e=t.__e)}),Ia(e)}function Ca(e){(8&e.__g||(e.__g|=8,sn.push(e),Jo++))&&Yl==ye.debounceRendering||((Yl=ye.debounceRendering)||queueMicrotask)(Ra)}function Ra(){try{for(var e,t=1;sn.length;)sn.length>t&&sn.sort(Pa),e=sn.shift(),t=sn.length,8&e.__g&&Vc(e)}finally{(Jo=sn.length)&&(Yl||queueMicrotask)(Ra)}}function La(e,t,n,o,l,r,a,i,d,h,$){var f,g,b,S,x,v,D=o.__k||Zo,w=t.length;for(d=Hc(n,t,D,d,w),f=0;f<w;f++)(b=n.__k[f])!=null&&(g=~b.__i&&D[b.__i]||Qo,b.__i=f,v=Zl(e,b,g,l,r,a,i,d,h,$),S=b.__e,(g.ref!=b.ref||8&g.__u)&&(g.ref&&Xl(g.ref,null,b,g),b.ref&&$.push(b.ref,b.__c||S,b)),x=x||S,4&b.__u?(d=Ma(b,d,e,!g.__v),g.__e&&(g.__e=null)):typeof b.type=="function"&&v!==void 0?d=v:S&&(d=S.nextSibling),b.__u&=-21);return n.__e=x,d}function Hc(e,t,n,o,l){var r,a,i,d,h,$,f,g,b,S=n.length,x=S,v=0,D=0,w=e.__k=Array(l);for(r=0;r<l;r++)(a=t[r])!=null&&typeof a!="boolean"&&typeof a!="function"?(typeof a!="object"||a.constructor===String?a=w[r]=_o(null,a):Jl(a)?a=w[r]=_o(Xo,{children:a}):a.constructor===yo&&a.__b?a=w[r]=_o(a.type,a.props,a.key,a.ref,a.__v):w[r]=a,d=r+v,a.__=e,a.__b=e.__b+1,i=null,~(h=a.__i=zc(a,n,d,x))&&(x--,(i=n[h])&&(i.__u|=2)),i&&i.__v?(a.__u|=16,h==d-1?v--:h==d+1?v++:h!=d&&(h>d?v--:v++,D=1)):(~h||(l>S?v--:l<S&&v++),typeof a.type!="function"&&(a.__u|=4))):w[r]=null;if(D){for($=[],f=[],r=0;r<l;r++)if((a=w[r])&&16&a.__u){for(v=0,g=$.length;v<g;)$[b=v+g>>1]<a.__i?v=b+1:g=b;$[v]=a.__i,f[r]=v+1}for(v=$.length;r--;)f[r]&&(f[r]==v?v--:w[r].__u|=4)}if(x)for(r=0;r<S;r++)!(i=n[r])||2&i.__u||(i.__e==o&&(o=cn(i)),er(i,i));return o}function Ma(e,t,n,o){var l,r,a,i;if(typeof e.type=="function"){if(e.props.__P)return t;if(l=e.__k)for(r=0;r<l.length;r++)l[r]&&(l[r].__=e,t=Ma(l[r],t,n,!1));return t}for(t&&!t.parentNode&&(t=cn(e))&&!t.parentNode&&(t=null),a=e.__e,i=t;i&&i.nodeType==8;)i=i.nextSibling;for(a!=i&&(!o&&n.moveBefore&&a.parentNode?n.moveBefore(a,t):n.insertBefore(a,t||null)),t=a;(t=t&&t.nextSibling)&&t.nodeType==8&&!t.data.startsWith("$s"););return t}function zc(e,t,n,o){var l,r=e.key,a=e.type,i=t[n],d=i&&!(2&i.__u);if(i===null&&r==null||d&&r==i.key&&a==i.type)return n;if(o>(d?1:0)){for(l=n-1;l>=0;l--)if((i=t[l])&&!(2&i.__u)&&r==i.key&&a==i.type)return l;for(l=n+1;l<t.length;l++)if((i=t[l])&&!(2&i.__u)&&r==i.key&&a==i.type)return l}return-1}function Ea(e,t,n){n==null&&(n=""),t[0]=="-"?e.setProperty(t,n):e[t]=n}function Go(e,t,n,o,l){var r,a;if(t=="style")if(typeof n=="string")e.style.cssText=n;else{if(typeof o=="string"&&(e.style.cssText=o=""),o)for(t in o)n&&t in n||Ea(e.style,t);if(n)for(t in n)o&&n[t]==o[t]||Ea(e.style,t,n[t])}else if(t[0]=="o"&&t[1]=="n")typeof n!="function"&&(n=null),typeof o!="function"&&(o=null),(e.__e||(e.__e={}))[t]=n,n&&o||(a=ql[t]||(ql[t]=Wc(t)),(e.__a||(e.__a={}))[t]=Kl,r=t!=(t=t.replace(Ta,"$1")),(t=t.slice(2))[0]<"a"&&(t=t.toLowerCase()),n?e.addEventListener(t,a,r):e.removeEventListener(t,a,r));else{if(l=="http://www.w3.org/2000/svg")t=t.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(t!="width"&&t!="height"&&t!="href"&&t!="list"&&t!="form"&&t!="tabIndex"&&t!="download"&&t!="rowSpan"&&t!="colSpan"&&t!="role"&&t!="popover"&&t in e)try{return void(e[t]=n??"")}catch{}if(typeof n=="function")return;n==null||n===!1&&t[4]!="-"?e.removeAttribute(t):e.setAttribute(t,t=="popover"&&n==1?"":n)}}function Wc(e){return function(t){var n=this.__e;if(n){if(n=n[e],t[Yo]==null)t[Yo]=Kl++;else if(t[Yo]<this.__a[e])return;return n(ye.event?ye.event(t):t)}}}function Zl(e,t,n,o,l,r,a,i,d,h){var $,f,g,b,S,x,v,D,w,E,C,K,N,J,B,Z,W,T,j=t.type;if(t.constructor!==yo)return null;128&n.__u&&(d=32&n.__u,$=n.__c.__z)&&(t.__u|=d,f=r=[],$.nodeType==8?i=Ko($,r):r.push($),i=r[0]||i),($=ye.__b)&&$(t);e:if(typeof j=="function"){g=a.length;try{if(D=t.props,w=($=j.prototype)&&$.render,E=($=j.contextType)&&o[$.__c],C=$?E?E.props.value:$.__:o,(b=n.__c)?(t.__c=b,2&b.__g&&(b.__g|=1)):(w?t.__c=b=new j(D,C):(t.__c=b=new qo(D,C),b.constructor=j,b.render=jc),E&&E.sub(b),b.state||(b.state={}),b.__n=o,b.__g|=8,b.__h=[],b.__k=[]),w&&(b.__s||(b.__s=b.state),j.getDerivedStateFromProps&&(b.__s==b.state&&(b.__s=kn({},b.__s)),kn(b.__s,j.getDerivedStateFromProps(D,b.__s)))),S=b.props,x=b.state,b.__v=t,n.__c){if(D!==S&&w&&!j.getDerivedStateFromProps&&b.componentWillReceiveProps&&b.componentWillReceiveProps(D,C),t.__v==n.__v&&!(8&b.__g)||!(4&b.__g)&&b.shouldComponentUpdate&&b.shouldComponentUpdate(D,b.__s,C)===!1){t.__v!=n.__v&&(b.props=D,b.state=b.__s,b.__g&=-9),t.__e=n.__e,t.__k=n.__k,t.__k.some(function(R){R&&(R.__=t)}),Zo.push.apply(b.__h,b.__k),b.__k=[],b.__h.length&&a.push(b),i=cn(n);break e}b.componentWillUpdate&&b.componentWillUpdate(D,b.__s,C),w&&b.componentDidUpdate&&b.__h.push(function(){b.componentDidUpdate(S,x,v)})}else w&&!j.getDerivedStateFromProps&&b.componentWillMount&&b.componentWillMount(),w&&b.componentDidMount&&b.__h.push(b.componentDidMount);b.context=C,b.props=D,b.__P=e,b.__g&=-5,K=ye.__r,N=w?25:0;do b.__g&=-9,K&&K(t),$=b.render(b.props,b.state=b.__s,b.context);while(8&b.__g&&++N<25);w&&(Zo.push.apply(b.__h,b.__k),b.__k=[]),b.state=b.__s,b.getChildContext&&(o=kn({},o,b.getChildContext())),w&&n.__c&&b.getSnapshotBeforeUpdate&&(v=b.getSnapshotBeforeUpdate(S,x)),J=$&&$.type===Xo&&$.key==null?$.props.children:$,D.__P&&($=i,l=(e=D.__P).namespaceURI,d=r=null,n.props&&n.props.__P!=e&&(n.__k.some(function(R){R&&er(R,R)}),n.__k=null),i=n.__k?cn(n,0):null),i=La(e,Jl(J)?J:[J],t,n,o,l,r,a,i,d,h),D.__P&&(t.__e=null,i=$),t.__u&=-161,f&&f.some(Sn),b.__h.length&&a.push(b),1&b.__g&&(b.__g&=-4)}catch(R){if(a.length=g,t.__v=null,d||r)if(R&&R.then){if(t.__u|=128|d,r){for(~(W=r.indexOf(i||void 0))||(W=r.length);(T=r[W-1])&&T.nodeType==8;)W--;for(;W<r.length;W++)if(T=r[W])if(r[W]=null,B){if(T==Z)break}else{if(T.nodeType!=8)break;T.data.startsWith("$s")&&(Z=Ko(B=T))}}if(!B){for(;i&&i.nodeType==8&&i.nextSibling;)i=i.nextSibling;B=i}($=Ko(B=t.__c.__z||(t.__c.__z=B)))?(t.__e=B,i=$):t.__e=i,i=i&&i.nextSibling}else r&&r.some(Sn);else t.__e=n.__e;t.__k||(t.__k=n.__k||[]),R&&R.then||Na(t),ye.__e(R,t,n)}}else i=t.__e=Bc(n.__e,t,n,o,l,r,a,d,h,e);return($=ye.diffed)&&$(t),i}function Ko(e,t){if(e&&e.nodeType==8&&e.data.startsWith("$s"))for(var n=1;e=e.nextSibling;){if(e.nodeType==8){if(e.data.startsWith("$s"))n++;else if(e.data.startsWith("/$s")&&!--n)return e}t&&t.push(e)}}function Na(e){e&&(e.__c&&(e.__c.__g|=4),e.__k&&e.__k.some(Na))}function Oa(e,t,n){for(var o=0;o<n.length;)Xl(n[o++],n[o++],n[o++]);ye.__c&&ye.__c(t,e),e.some(function(l){try{e=l.__h,l.__h=[],e.some(function(r){r.call(l)})}catch(r){ye.__e(r,l.__v)}})}function Bc(e,t,n,o,l,r,a,i,d,h){var $,f,g,b,S,x,v,D,w=n.props||Qo,E=t.props,C=t.type;if(C=="svg"?l="http://www.w3.org/2000/svg":C=="math"?l="http://www.w3.org/1998/Math/MathML":l||(l="http://www.w3.org/1999/xhtml"),r){for($=0;$<r.length;$++)if((S=r[$])&&(C?S.localName==C:S.nodeType==3)){e=S,r[$]=null;break}}if(!e){if(D=h.ownerDocument||document,!C)return D.createTextNode(E);e=D.createElementNS(l,C,E.is?E:h),i&&(ye.__m&&ye.__m(t,r),i=!1),r=null}if(C){if(h=C=="template"&&e.content||e,r=C=="textarea"&&E.defaultValue!=null?null:r&&Ql.call(h.childNodes),!i&&r)for(w={},$=0;$<e.attributes.length;$++)w[(S=e.attributes[$]).name]=S.value;for($ in w)S=w[$],$=="dangerouslySetInnerHTML"?g=S:$=="children"||$ in E||$=="value"&&"defaultValue"in E||$=="checked"&&"defaultChecked"in E||Go(e,$,null,S,l);for($ in E)S=E[$],$=="children"?b=S:$=="dangerouslySetInnerHTML"?f=S:$=="value"?x=S:$=="checked"?v=S:i&&typeof S!="function"||w[$]===S||Go(e,$,S,w[$],l);f?(i||g&&(f.__html==g.__html||f.__html==e.innerHTML)||(e.innerHTML=f.__html),t.__k=[]):(g&&(e.textContent=""),(C=="foreignObject"||l=="http://www.w3.org/1998/Math/MathML"&&Uc.test(C))&&(l="http://www.w3.org/1999/xhtml"),La(h,Jl(b)?b:[b],t,n,o,l,r,a,r?r[0]:n.__k&&cn(n,0),i,d),r&&r.some(Sn)),i&&C!="textarea"||($="value",C=="progress"&&x==null?e.removeAttribute($):x==null||x===e[$]&&(C!="progress"||x)||Go(e,$,x,w[$],l),$="checked",v!=null&&v!=e[$]&&Go(e,$,v,w[$],l))}else w===E||i&&e.data==E||(e.data=E);return e}function Xl(e,t,n,o){try{typeof e=="function"?t?t.__x=e(t)||1:o&&(o=o.__c||o.__e)&&(t=o.__x)&&(o.__x=null,typeof t=="function"?t():e(null)):e.current=t}catch(l){ye.__e(l,n)}}function er(e,t,n){var o,l,r,a;if(ye.unmount&&ye.unmount(e),!(o=e.ref)||o.current&&o.current!=e.__e||Xl(o,null,t,e),o=e.__c){if(o.componentWillUnmount)try{o.componentWillUnmount()}catch(i){ye.__e(i,t)}o.__P=o.__n=null}if(o=e.__k)for(a=0;a<o.length;a++)o[a]&&er(o[a],t,typeof e.type!="function"||n&&!e.props.__P);!n&&(o=e.__c)&&(o=o.__z)&&(l=Ko(o,r=[]))&&(o==e.__e&&r.some(Sn),Sn(l),Sn(o)),n||Sn(e.__e),e.__e=e.__c=e.__=null}function jc(e,t,n){return this.constructor(e,n)}function Fa(e,t){var n,o,l,r;ye.__&&ye.__(e,t),t.nodeType==9&&(t=t.documentElement),o=(n=e&&32&e.__u)?null:t.__k,t.__k=_o(Xo,{children:[e]}),l=[],r=[],Zl(t,t.__k,o||Qo,Qo,t.namespaceURI,o?null:t.firstChild?Ql.call(t.childNodes):null,l,o?o.__e:t.firstChild,n,r),Oa(l,t.__k,r),t.__k.props.children=null}ye={__e:function(e,t,n,o){for(var l,r,a;t=t.__;)if((l=t.__c)&&!(1&l.__g)){l.__g|=4;try{if((a=(r=l.constructor)&&r.getDerivedStateFromError)&&l.setState(r.getDerivedStateFromError(e)),l.componentDidCatch&&(l.componentDidCatch(e,o||{}),a=1),a&&8&l.__g)return void(l.__g|=2)}catch(i){e=i}}throw Jo=0,e}},Aa=0,Oc=function(e){return e!=null&&e.constructor===yo},qo.prototype.setState=function(e,t){var n=this.__s;n&&n!=this.state||(n=this.__s=kn({},this.state)),typeof e=="function"&&(e=e(kn({},n),this.props)),e&&(kn(n,e),this.__v&&(t&&this.__k.push(t),Ca(this)))},qo.prototype.forceUpdate=function(e){this.__v&&(this.__g|=4,e&&this.__h.push(e),Ca(this))},qo.prototype.render=Xo,sn=[],Jo=0,Pa=function(e,t){return e.__v.__b-t.__v.__b},Yo=Symbol(),Ta=/(PointerCapture)$|Capture$/i,Kl=0,ql={},Fc=0;var wo,Ve,tr,Ua,nr=Object.is,So=0,qa=[],or=[],Ne=ye,Va=Ne.__b,Ha=Ne.__r,za=Ne.diffed,Wa=Ne.__c,Ba=Ne.unmount,ja=Ne.__;function rr(e,t){Ne.__h&&Ne.__h(Ve,e,So||t),So=0;var n=Ve.__H||(Ve.__H={__:[],__h:[]});return e>=n.__.length&&n.__.push({}),n.__[e]}function F(e){return So=1,Gc(Qa,e)}function Gc(e,t,n){var o=rr(wo++,2);if(o.t=e,!o.__c&&(o.__=[n?n(t):Qa(void 0,t),function(r){var a=(o.__N||o.__)[0],i=o.t(a,r);nr(a,i)||(o.__N=[i,o.__[1]],o.__c.setState({}))}],o.__c=Ve,!Ve.__f)){Ve.__f=!0;var l=Ve.shouldComponentUpdate;Ve.shouldComponentUpdate=function(r,a,i){var d=this.__H;if(!d)return!0;var h=!1,$=this.props!=r;if(d.__.some(function(g){g.__N&&(h=!0,nr(g.__[0],g.__N[0])||($=!0))}),l){var f=l.call(this,r,a,i);return h?f||$:f}return!h||$}}return o.__}function Wt(e,t){var n=rr(wo++,3);!Ne.__s&&Ja(n.__H,t)&&(n.__P=!0,n.__=e,n.u=t,Ve.__H.__h.push(n))}function Bt(e){return So=5,Ka(function(){return{current:e}},[])}function Ka(e,t){var n=rr(wo++,7);return Ja(n.__H,t)&&(n.__=e(),n.__H=t),n.__}function ar(e,t){return So=8,Ka(function(){return e},t)}function Yc(){var e;do{for(;e=or.shift();)try{vo(e)}catch(n){Ne.__e(n,{__:(e=e.__P)&&e.__v})}for(;e=qa.shift();){var t=e.__H;if(e.__P&&t)try{t.__h.some(vo),t.__h.some(lr),t.__h=[]}catch(n){t.__h=[],Ne.__e(n,e.__v)}}}while(or.length)}Ne.__b=function(e){Ve=null,Va&&Va(e)},Ne.__=function(e,t){e&&t.__k&&t.__k.__m&&(e.__m=t.__k.__m),ja&&ja(e,t)},Ne.__r=function(e){Ha&&Ha(e),wo=0;var t=(Ve=e.__c).__H;t&&(tr==Ve?Ve.__h=[]:(t.__h.some(vo),t.__h.some(lr),wo=0),t.__h=[],t.__.some(function(n){n.__N&&(n.__=n.__N),n.u=n.__N=void 0})),tr=Ve},Ne.diffed=function(e){za&&za(e);var t=e.__c;t&&t.__H&&(t.__H.__h.length&&Ya(qa.push(t)),t.__H.__.some(function(n){n.u&&(n.__H=n.u)})),tr=Ve=null},Ne.__c=function(e,t){t.some(function(n){try{n.__h.some(vo),n.__h=n.__h.filter(function(o){return!o.__||lr(o)})}catch(o){n.__h=[function(){throw o}]}}),Wa&&Wa(e,t)},Ne.unmount=function(e){Ba&&Ba(e);var t,n,o=e.__c;o&&o.__H&&(o.__H.__.some(function(l){try{if(l.__P&&l.__c){if(n===void 0){for(n=e.__;n&&(!n.__c||!n.__c.__P);)n=n.__;n=n&&n.__c}l.__P=n,Ya(or.push(l))}else vo(l)}catch(r){t=r}}),o.__H=void 0,t&&Ne.__e(t,o.__v))};var Ga=typeof requestAnimationFrame=="function";function qc(e){var t,n=function(){clearTimeout(o),Ga&&cancelAnimationFrame(t),setTimeout(e)},o=setTimeout(n,35);Ga&&(t=requestAnimationFrame(n))}function Ya(e){e!=1&&Ua==Ne.requestAnimationFrame||((Ua=Ne.requestAnimationFrame)||qc)(Yc)}function vo(e){var t=Ve,n=e.__c;typeof n=="function"&&(e.__c=void 0,n()),Ve=t}function lr(e){var t=Ve;e.__c=e.__(),Ve=t}function Ja(e,t){return!e||e.length!=t.length||t.some(function(n,o){return!nr(n,e[o])})}function Qa(e,t){return typeof t=="function"?t(e):t}var sr="pixgate.operatorToken",Za="/admin/v1";function ko(){return sessionStorage.getItem(sr)}function Xa(e){sessionStorage.setItem(sr,e)}function el(){sessionStorage.removeItem(sr)}var dt=class extends Error{constructor(t,n,o,l){super(o),this.status=t,this.code=n,this.field=l}},ir=()=>{};function es(e){ir=e}async function Qt(e,t,{body:n,query:o,token:l,contentType:r}={}){let a=l??ko(),i={Accept:"application/json"};a&&(i.Authorization=`Bearer ${a}`);let d;n instanceof Blob||n instanceof ArrayBuffer?(i["Content-Type"]=r??"application/octet-stream",d=n):n!==void 0&&(i["Content-Type"]="application/json",d=JSON.stringify(n));let h=Za+t;if(o){let b=new URLSearchParams;for(let[x,v]of Object.entries(o))v!=null&&v!==""&&b.set(x,v);let S=b.toString();S&&(h+=`?${S}`)}let $;try{$=await fetch(h,{method:e,headers:i,body:d,credentials:"omit",cache:"no-store"})}catch(b){throw new dt(0,"network_error",`The admin API did not answer (${b.message}).`)}let f=null,g=await $.text();if(g)try{f=JSON.parse(g)}catch{f=null}if(!$.ok){let b=f?.error??{},S=new dt($.status,b.code??`http_${$.status}`,b.message??`${$.status} ${$.statusText}`,b.field);throw $.status===401&&l===void 0&&ir(S),S}return f?.data??f}async function ts(e,t){let n={Accept:"application/x-ndjson","Content-Type":"application/json"},o=ko();o&&(n.Authorization=`Bearer ${o}`);let l;try{l=await fetch(`${Za}/replays`,{method:"POST",headers:n,body:JSON.stringify(e),credentials:"omit",cache:"no-store"})}catch(i){throw new dt(0,"network_error",`The admin API did not answer (${i.message}).`)}if(!l.ok||!l.headers.get("content-type")?.startsWith("application/x-ndjson")){let d=(await l.json().catch(()=>null))?.error??{},h=new dt(l.status,d.code??`http_${l.status}`,d.message??`${l.status} ${l.statusText}`,d.field);throw l.status===401&&ir(h),h}let r=l.body.pipeThrough(new TextDecoderStream).getReader(),a="";for(;;){let{value:i,done:d}=await r.read();if(d)break;a+=i;let h;for(;(h=a.indexOf(`
`))>=0;){let $=JSON.parse(a.slice(0,h));if(a=a.slice(h+1),$.progress)t($.progress);else{if($.success)return $.data;throw new dt(200,$.error?.code??"replay_failed",$.error?.message??"The replay failed.")}}}throw new dt(0,"network_error","The replay ended before its report.")}var X=(e,t)=>Qt("GET",e,{query:t}),jt=(e,t)=>Qt("POST",e,{body:t??{}}),xo=(e,t)=>Qt("PUT",e,{body:t}),Co=e=>Qt("DELETE",e);async function Gt(e,t,n,o=1e3){let l=[],r;for(;;){let a=await X(e,{...t,limit:100,after:r});if(l.push(...a),a.length<100||l.length>=o)return l;r=n(a[a.length-1])}}async function cr(e){return Qt("GET","/operators/me",{token:e})}var os=function(e,t,n,o){var l;t[0]=0;for(var r=1;r<t.length;r++){var a=t[r++],i=t[r]?(t[0]|=a?1:2,n[t[r++]]):t[++r];a===3?o[0]=i:a===4?o[1]=Object.assign(o[1]||{},i):a===5?(o[1]=o[1]||{})[t[++r]]=i:a===6?o[1][t[++r]]+=i+"":a?(l=e.apply(i,os(e,i,n,["",null])),o.push(l),i[0]?t[0]|=2:(t[r-2]=0,t[r]=l)):o.push(i)}return o},ns=new Map;function ls(e){var t=ns.get(this);return t||(t=new Map,ns.set(this,t)),(t=os(this,t.get(e)||(t.set(e,t=(function(n){for(var o,l,r=1,a="",i="",d=[0],h=function(g){r===1&&(g||(a=a.replace(/^\s*\n\s*|\s*\n\s*$/g,"")))?d.push(0,g,a):r===3&&(g||a)?(d.push(3,g,a),r=2):r===2&&a==="..."&&g?d.push(4,g,0):r===2&&a&&!g?d.push(5,0,!0,a):r>=5&&((a||!g&&r===5)&&(d.push(r,0,a,l),r=6),g&&(d.push(r,g,0,l),r=6)),a=""},$=0;$<n.length;$++){$&&(r===1&&h(),h($));for(var f=0;f<n[$].length;f++)o=n[$][f],r===1?o==="<"?(h(),d=[d],r=3):a+=o:r===4?a==="--"&&o===">"?(r=1,a=""):a=o+a[0]:i?o===i?i="":a+=o:o==='"'||o==="'"?i=o:o===">"?(h(),r=1):r&&(o==="="?(r=5,l=a,a=""):o==="/"&&(r<5||n[$][f+1]===">")?(h(),r===3&&(d=d[0]),r=d,(d=d[0]).push(2,0,r),r=0):o===" "||o==="	"||o===`
`||o==="\r"?(h(),r=2):a+=o),r===3&&a==="!--"&&(r=4,d=d[0])}return h(),d})(e)),t),arguments,[])).length>1?t:t[0]}var u=ls.bind(Da),tl=["viewer","tester","operator","admin"];function Te(e,t){return tl.indexOf(e?.role)>=tl.indexOf(t)}function re(e,t){let[n,o]=F({loading:!0,data:void 0,error:null}),l=ar(()=>{let r=!0;return o(a=>({...a,loading:!0,error:null})),e().then(a=>r&&o({loading:!1,data:a,error:null}),a=>r&&o({loading:!1,data:void 0,error:a})),()=>{r=!1}},t);return Wt(l,[l]),{...n,reload:l}}function Re(){let[e,t]=F({busy:!1,error:null,result:void 0}),n=ar(async o=>{t({busy:!0,error:null,result:void 0});try{let l=await o();return t({busy:!1,error:null,result:l}),l}catch(l){t({busy:!1,error:l,result:void 0});return}},[]);return{...e,run:n}}function he({error:e}){return e?u`<p class="error" role="alert">
    ${e.message}${e.code?u` <code>${e.code}</code>`:null}
  </p>`:null}function Kc({what:e}){return u`<p class="muted" role="status">Loading ${e}…</p>`}function ie({state:e,what:t,children:n}){return e.error?u`<${he} error=${e.error} />`:e.loading&&e.data===void 0?u`<${Kc} what=${t} />`:n(e.data)}function dn({open:e,title:t,children:n,confirmLabel:o,onConfirm:l,onCancel:r}){let a=Bt(null);return Wt(()=>{let i=a.current;i&&(e&&!i.open&&i.showModal(),!e&&i.open&&i.close())},[e]),u`<dialog ref=${a} aria-labelledby="confirm-title" onCancel=${i=>{i.preventDefault(),r()}}>
    <h2 id="confirm-title">${t}</h2>
    <div>${n}</div>
    <div class="actions">
      <button type="button" onClick=${r}>Cancel</button>
      <button type="button" class="primary" onClick=${l}>${o}</button>
    </div>
  </dialog>`}function ut({value:e,summary:t}){return u`<details class="json">
    <summary>${t??"JSON"}</summary>
    <pre tabindex="0">${JSON.stringify(e,null,2)}</pre>
  </details>`}function Le({value:e}){return e?/^[0-9a-f]{64}$/.test(e)?u`<code title=${e}>${e.slice(0,12)}</code>`:u`<code>${e}</code>`:u`<span class="muted">none</span>`}var rs=new Intl.NumberFormat("pt-BR",{style:"currency",currency:"BRL"});function rt(e){return e==null?"—":rs.format(e/100)}function Xe(e){return e==null?"—":rs.format(Number(e))}function dr(e){return e==null?"—":`${e>0?"+":""}${rt(e)}`}function Qn(e){return e==null||Number.isNaN(e)?"—":`${(e*100).toFixed(1)} %`}function ne(e){if(!e)return"—";let t=new Date(e);return Number.isNaN(t.getTime())?e:t.toLocaleString()}var Ae=["policy","provider","economics"];function as(){let e=re(()=>Gt("/stores",{},r=>r.code),[]),[t,n]=F(""),[o,l]=F("");return u`<h1>Stores</h1>
    <form class="filters" role="search" aria-label="Filter stores" onSubmit=${r=>r.preventDefault()}>
      <label>Find a store <input type="search" value=${t} onInput=${r=>n(r.target.value)} placeholder="code, name or merchant" /></label>
      <label>Mode
        <select value=${o} onChange=${r=>l(r.target.value)}>
          <option value="">any</option><option value="SHADOW">SHADOW</option><option value="LIVE">LIVE</option>
        </select>
      </label>
    </form>
    <${ie} state=${e} what="the stores">${r=>{let a=t.trim().toLowerCase(),i=r.filter(d=>(!o||d.mode===o)&&(!a||[d.code,d.name,d.merchant].some(h=>String(h).toLowerCase().includes(a))));return u`<div class="scroll"><table>
        <caption>${i.length} of ${r.length} stores</caption>
        <thead><tr><th scope="col">Store</th><th scope="col">Name</th><th scope="col">Merchant</th><th scope="col">Mode</th>
          ${Ae.map(d=>u`<th scope="col">${d}</th>`)}</tr></thead>
        <tbody>${i.map(d=>u`<tr>
            <th scope="row"><a href=${`#/stores/${encodeURIComponent(d.code)}`}>${d.code}</a></th>
            <td>${d.name}</td><td>${d.merchant}</td><td><span class=${`badge ${d.mode}`}>${d.mode}</span></td>
            ${Ae.map(h=>u`<td><${Le} value=${d.components?.[h]} /></td>`)}
          </tr>`)}</tbody>
      </table></div>`}}<//>`}async function Jc(e){let t=`/stores/${encodeURIComponent(e)}`,[n,o,...l]=await Promise.all([X(t),X(`${t}/components`),...Ae.map(r=>X(`/components/${r}`))]);return{store:n,components:o,versions:Object.fromEntries(Ae.map((r,a)=>[r,l[a]]))}}function ss({code:e,me:t}){let n=re(()=>Jc(e),[e]),o=Re(),[l,r]=F(null),a=`/stores/${encodeURIComponent(e)}`;async function i(){let d=l;r(null),await o.run(d.run)!==void 0&&n.reload()}return u`<h1>Store <code>${e}</code></h1>
    <p><a href="#/stores">All stores</a>${Te(t,"tester")?u` · <a href=${`#/evaluate/${encodeURIComponent(e)}`}>Evaluate a charge on this store</a>`:null}</p>
    <${he} error=${o.error} />
    ${o.busy?u`<p role="status">Working…</p>`:null}
    <${ie} state=${n} what="the store">${({store:d,components:h,versions:$})=>u`
      <section aria-labelledby="store-facts">
        <h2 id="store-facts">Facts</h2>
        <dl class="facts">
          <dt>Name</dt><dd>${d.name}</dd>
          <dt>Merchant</dt><dd>${d.merchant}</dd>
          <dt>Mode</dt><dd><span class=${`badge ${d.mode}`}>${d.mode}</span></dd>
          <dt>Gateways</dt><dd>${d.gateways?.length?d.gateways.join(", "):"every active gateway"}</dd>
          <dt>Kill switch</dt><dd>${Qc(h.killSwitch)}</dd>
        </dl>
      </section>
      <section aria-labelledby="store-steps">
        <h2 id="store-steps">Components per step</h2>
        <div class="steps">
          ${Ae.map(f=>u`<${Zc}
            key=${f} step=${f} view=${h.steps[f]} versions=${$[f]} me=${t}
            onActivate=${g=>r({title:`Activate ${f} ${g==="bundled"?"bundled":g.slice(0,12)}?`,body:`Every new charge of ${e} will run this ${f} version. Charges in flight finish on the version they started with.`,label:"Activate",run:()=>xo(`${a}/components/${f}`,{version:g})})}
            onRollback=${()=>r({title:`Roll back ${f}?`,body:`The ${f} step of ${e} goes back to ${h.steps[f].previous}.`,label:"Roll back",run:()=>jt(`${a}/components/${f}/rollback`)})}
            onCanary=${g=>o.run(()=>xo(`${a}/components/${f}/canary`,g)).then(b=>b!==void 0&&n.reload())}
            onPromote=${()=>r({title:`Promote the ${f} canary?`,body:`Every new charge of ${e} will run ${h.steps[f].canary.version.slice(0,12)} for ${f}; the canary ends.`,label:"Promote",run:()=>jt(`${a}/components/${f}/canary/promote`)})}
            onEndCanary=${()=>o.run(()=>Co(`${a}/components/${f}/canary`)).then(g=>g!==void 0&&n.reload())}
            store=${e}
            onCandidate=${g=>o.run(()=>g?xo(`${a}/components/${f}/candidate`,{version:g}):Co(`${a}/components/${f}/candidate`)).then(b=>b!==void 0&&n.reload())}
          />`)}
        </div>
      </section>
      ${Te(t,"operator")?u`<${td} value=${h.killSwitch} onSave=${f=>o.run(()=>xo(`${a}/kill-switch`,f)).then(g=>g!==void 0&&n.reload())} />`:null}
      <section aria-labelledby="store-history">
        <h2 id="store-history">Activation history</h2>
        ${h.history.length===0?u`<p class="muted">Nothing was activated on this store yet.</p>`:u`<div class="scroll"><table>
              <thead><tr><th scope="col">When</th><th scope="col">Step</th><th scope="col">Action</th><th scope="col">Version</th><th scope="col">Before</th><th scope="col">Why</th></tr></thead>
              <tbody>${h.history.map(f=>u`<tr>
                <td>${ne(f.at)}</td><td>${f.step}</td><td>${f.action}</td>
                <td><${Le} value=${f.version} /></td><td><${Le} value=${f.previousVersion} /></td><td>${f.reason??""}</td>
              </tr>`)}</tbody>
            </table></div>`}
      </section>`}<//>
    <${dn} open=${!!l} title=${l?.title} confirmLabel=${l?.label??"Confirm"}
      onConfirm=${i} onCancel=${()=>r(null)}>${l?.body}<//>`}function Qc(e){return e?e.enabled?`armed: rolls back at ${e.errorRatePercent} % failed calls over ${e.windowSeconds} s (at least ${e.minCalls} calls)`:"off":"unknown"}function Zc({step:e,view:t,versions:n,me:o,store:l,onActivate:r,onRollback:a,onCandidate:i,onCanary:d,onPromote:h,onEndCanary:$}){let f=["bundled",...n.map(E=>E.version)],g=Object.fromEntries(n.map(E=>[E.version,E.source])),b=E=>E==="bundled"?"bundled":`${E.slice(0,12)} (${g[E]})`,[S,x]=F(f.find(E=>E!==t.active)??t.active),[v,D]=F(f.find(E=>E!==t.active)??""),w=`step-${e}`;return u`<article class="card" aria-labelledby=${w}>
    <h3 id=${w}>${e}</h3>
    <dl class="facts">
      <dt>Active</dt><dd><${Le} value=${t.active} /></dd>
      <dt>Since</dt><dd>${ne(t.activatedAt)}</dd>
      <dt>Previous</dt><dd><${Le} value=${t.previous} /></dd>
      <dt>Candidate</dt><dd><${Le} value=${t.candidate} /></dd>
      <dt>Canary</dt><dd>${t.canary?u`<${Le} value=${t.canary.version} /> on ${t.canary.percent} % of charges`:u`<span class="muted">none</span>`}</dd>
    </dl>
    ${t.canary?u`<${ed} store=${l} step=${e} />`:null}
    ${Te(o,"operator")?u`<div class="row">
      <label>Version to activate
        <select value=${S} onChange=${E=>x(E.target.value)}>
          ${f.map(E=>u`<option value=${E}>${b(E)}${E===t.active?", active":""}</option>`)}
        </select>
      </label>
      <button type="button" class="primary" disabled=${S===t.active} onClick=${()=>r(S)}>Activate ${e}</button>
      ${t.previous?u`<button type="button" onClick=${a}>Roll back ${e}</button>`:null}
    </div>`:null}
    ${Te(o,"tester")?u`<div class="row">
      ${t.candidate?u`<button type="button" onClick=${()=>i(null)}>Clear ${e} candidate</button>
            <a href=${`#/shadow/${encodeURIComponent(l)}/${e}`}>See the comparison</a>`:u`<label>Shadow candidate
            <select value=${v} onChange=${E=>D(E.target.value)}>
              ${f.map(E=>u`<option value=${E}>${b(E)}</option>`)}
            </select>
          </label>
          <button type="button" onClick=${()=>i(v)}>Set ${e} candidate</button>`}
    </div>`:null}
    ${Te(o,"operator")?t.canary?u`<div class="row">
          <button type="button" class="primary" onClick=${h}>Promote ${e} canary</button>
          <button type="button" onClick=${$}>End ${e} canary</button>
        </div>`:u`<${Xc} step=${e} choices=${f.filter(E=>E!==t.active)} label=${b} onStart=${d} />`:null}
  </article>`}function Xc({step:e,choices:t,label:n,onStart:o}){let[l,r]=F(t[0]??""),[a,i]=F(5);return t.length===0?null:u`<form class="row" aria-label=${`Start a ${e} canary`} onSubmit=${d=>{d.preventDefault(),o({version:l,percent:Number(a)})}}>
    <label>Canary version
      <select value=${l} onChange=${d=>r(d.target.value)}>
        ${t.map(d=>u`<option value=${d}>${n(d)}</option>`)}
      </select>
    </label>
    <label>Share (%) <input type="number" min="0.1" max="100" step="0.1" value=${a} onInput=${d=>i(d.target.value)} /></label>
    <button type="submit">Start ${e} canary</button>
  </form>`}function ed({store:e,step:t}){let n=re(()=>X(`/stores/${encodeURIComponent(e)}/components/${t}/canary`),[e,t]);return u`<${ie} state=${n} what="the canary">${o=>u`
    <dl class="facts" aria-label=${`${t} canary figures`}>
      <dt>Share so far</dt><dd>${o.sharePercent} % (${o.total.calls} calls)</dd>
      <dt>Errors</dt><dd>${o.total.errors} (${o.total.errorRatePercent} %; ends at ${o.maxErrorRatePercent} % over ${o.windowSeconds} s)</dd>
      <dt>Changed</dt><dd>${o.total.changed} (${o.total.changedRatePercent} %${o.maxChangedRatePercent?`; ends at ${o.maxChangedRatePercent} %`:""})</dd>
    </dl>`}<//>`}function td({value:e,onSave:t}){let[n,o]=F({...e}),l=r=>a=>o({...n,[r]:a.target.type==="checkbox"?a.target.checked:Number(a.target.value)});return u`<section aria-labelledby="kill-switch">
    <h2 id="kill-switch">Kill switch</h2>
    <form class="row" onSubmit=${r=>{r.preventDefault(),t({enabled:n.enabled,errorRatePercent:n.errorRatePercent,windowSeconds:n.windowSeconds,minCalls:n.minCalls})}}>
      <label><input type="checkbox" checked=${n.enabled} onChange=${l("enabled")} /> Armed</label>
      <label>Error rate (%) <input type="number" min="1" max="100" value=${n.errorRatePercent} onInput=${l("errorRatePercent")} /></label>
      <label>Window (s) <input type="number" min="10" max="86400" value=${n.windowSeconds} onInput=${l("windowSeconds")} /></label>
      <label>Minimum calls <input type="number" min="1" max="1000000" value=${n.minCalls} onInput=${l("minCalls")} /></label>
      <button type="submit">Save the kill switch</button>
    </form>
  </section>`}function is({me:e}){let t=re(async()=>{let r=await Promise.all(Ae.map(a=>X(`/components/${a}`)));return Object.fromEntries(Ae.map((a,i)=>[a,r[i]]))},[]),n=Re(),[o,l]=F(null);return u`<h1>Components</h1>
    ${Te(e,"operator")?u`<${nd} onUploaded=${t.reload} />`:null}
    <${he} error=${n.error} />
    <${ie} state=${t} what="the components">${r=>Ae.map(a=>u`
      <section aria-labelledby=${`versions-${a}`}>
        <h2 id=${`versions-${a}`}>${a}</h2>
        <div class="scroll"><table>
          <thead><tr><th scope="col">Version</th><th scope="col">Label</th><th scope="col">Source</th><th scope="col">Size</th><th scope="col">Uploaded</th><th scope="col">In use</th>
            ${Te(e,"operator")?u`<th scope="col"><span class="visually-hidden">Actions</span></th>`:null}</tr></thead>
          <tbody>${r[a].map(i=>u`<tr>
            <th scope="row"><${Le} value=${i.version} /></th>
            <td>${i.label??u`<span class="muted">none</span>`}</td>
            <td>${i.source}</td>
            <td>${(i.sizeBytes/1024).toFixed(1)} KiB</td>
            <td>${ne(i.createdAt)}</td>
            <td>${i.inUse.length?i.inUse.map(d=>`${d.store} (${d.role})`).join(", "):u`<span class="muted">no store</span>`}</td>
            ${Te(e,"operator")?u`<td>${i.source!=="bundled"&&i.inUse.length===0?u`<button type="button" onClick=${()=>l(i)} aria-label=${`Delete ${a} version ${i.version.slice(0,12)}`}>Delete</button>`:null}</td>`:null}
          </tr>`)}</tbody>
        </table></div>
      </section>`)}<//>
    <${dn} open=${!!o} title="Delete this version?" confirmLabel="Delete"
      onCancel=${()=>l(null)}
      onConfirm=${async()=>{let r=o;l(null),await n.run(()=>Co(`/components/${r.step}/${r.version}`))!==void 0&&t.reload()}}>${o?u`The ${o.step} version <code>${o.version}</code> will be gone for good.`:null}<//>`}function nd({onUploaded:e}){let t=Bt(null),[n,o]=F("provider"),[l,r]=F(""),a=Re();function i(){let h=t.current.files[0];h&&!l&&r(h.name.replace(/\.wasm$/i,""))}async function d(h){h.preventDefault();let $=t.current.files[0];if(!$)return;let f=l?`?label=${encodeURIComponent(l)}`:"";await a.run(()=>Qt("POST",`/components/${n}${f}`,{body:$,contentType:"application/wasm"}))&&(t.current.value="",r(""),e())}return u`<section aria-labelledby="upload-title">
    <h2 id="upload-title">Upload a component</h2>
    <form class="row" onSubmit=${d}>
      <label>Step
        <select value=${n} onChange=${h=>o(h.target.value)}>
          ${Ae.map(h=>u`<option value=${h}>${h}</option>`)}
        </select>
      </label>
      <label>Component file (.wasm) <input type="file" ref=${t} onChange=${i} accept=".wasm,application/wasm" required /></label>
      <label>Label <input value=${l} onInput=${h=>r(h.target.value)} maxLength="100" placeholder="the file's name" /></label>
      <button type="submit" class="primary" disabled=${a.busy}>Upload</button>
    </form>
    <${he} error=${a.error} />
    ${a.result?u`<p role="status">Uploaded ${a.result.step} version <code>${a.result.version}</code>${a.result.label?` (${a.result.label})`:""}.</p>`:null}
  </section>`}var od="uplot",ld="u-hz",rd="u-vt",ad="u-title",sd="u-wrap",id="u-under",cd="u-over",dd="u-axis",En="u-off",ud="u-select",fd="u-cursor-x",pd="u-cursor-y",hd="u-cursor-pt",md="u-legend",$d="u-live",gd="u-inline",bd="u-series",_d="u-marker",cs="u-label",yd="u-value",Ao="width",Po="height";var ds="bottom",Zn="left",ur="right",Ar="#000",us=Ar+"0",fr="mousemove",fs="mousedown",pr="mouseup",ps="mouseenter",hs="mouseleave",ms="dblclick",vd="resize",wd="scroll",$s="change",al="dppxchange",Pr="--",ro=typeof window<"u",br=ro?document:null,eo=ro?window:null,Sd=ro?navigator:null,ue,nl;function _r(){let e=devicePixelRatio;ue!=e&&(ue=e,nl&&vr($s,nl,_r),nl=matchMedia(`(min-resolution: ${ue-.001}dppx) and (max-resolution: ${ue+.001}dppx)`),An($s,nl,_r),eo.dispatchEvent(new CustomEvent(al)))}function gt(e,t){if(t!=null){let n=e.classList;!n.contains(t)&&n.add(t)}}function yr(e,t){let n=e.classList;n.contains(t)&&n.remove(t)}function ke(e,t,n){e.style[t]=n+"px"}function Rt(e,t,n,o){let l=br.createElement(e);return t!=null&&gt(l,t),n?.insertBefore(l,o),l}function Ct(e,t){return Rt("div",e,t)}var gs=new WeakMap;function Yt(e,t,n,o,l){let r="translate("+t+"px,"+n+"px)",a=gs.get(e);r!=a&&(e.style.transform=r,gs.set(e,r),t<0||n<0||t>o||n>l?gt(e,En):yr(e,En))}var bs=new WeakMap;function _s(e,t,n){let o=t+n,l=bs.get(e);o!=l&&(bs.set(e,o),e.style.background=t,e.style.borderColor=n)}var ys=new WeakMap;function vs(e,t,n,o){let l=t+""+n,r=ys.get(e);l!=r&&(ys.set(e,l),e.style.height=n+"px",e.style.width=t+"px",e.style.marginLeft=o?-t/2+"px":0,e.style.marginTop=o?-n/2+"px":0)}var Tr={passive:!0},kd={...Tr,capture:!0};function An(e,t,n,o){t.addEventListener(e,n,o?kd:Tr)}function vr(e,t,n,o){t.removeEventListener(e,n,Tr)}ro&&_r();function Lt(e,t,n,o){let l;n=n||0,o=o||t.length-1;let r=o<=2147483647;for(;o-n>1;)l=r?n+o>>1:bt((n+o)/2),t[l]<e?n=l:o=l;return e-t[n]<=t[o]-e?n:o}function Ks(e){return(n,o,l)=>{let r=-1,a=-1;for(let i=o;i<=l;i++)if(e(n[i])){r=i;break}for(let i=l;i>=o;i--)if(e(n[i])){a=i;break}return[r,a]}}var Js=e=>e!=null,Qs=e=>e!=null&&e>0,cl=Ks(Js),xd=Ks(Qs);function Cd(e,t,n,o=0,l=!1){let r=l?xd:cl,a=l?Qs:Js;[t,n]=r(e,t,n);let i=e[t],d=e[t];if(t>-1)if(o==1)i=e[t],d=e[n];else if(o==-1)i=e[n],d=e[t];else for(let h=t;h<=n;h++){let $=e[h];a($)&&($<i?i=$:$>d&&(d=$))}return[i??ge,d??-ge]}function dl(e,t,n,o){let l=ks(e),r=ks(t);e==t&&(l==-1?(e*=n,t/=n):(e/=n,t*=n));let a=n==10?Zt:Zs,i=l==1?bt:Et,d=r==1?Et:bt,h=i(a(ze(e))),$=d(a(ze(t))),f=to(n,h),g=to(n,$);return n==10&&(h<0&&(f=be(f,-h)),$<0&&(g=be(g,-$))),o||n==2?(e=f*l,t=g*r):(e=ni(e,f),t=ul(t,g)),[e,t]}function Dr(e,t,n,o){let l=dl(e,t,n,o);return e==0&&(l[0]=0),t==0&&(l[1]=0),l}var Ir=.1,ws={mode:3,pad:Ir},Do={pad:0,soft:null,mode:0},Ed={min:Do,max:Do};function sl(e,t,n,o){return fl(n)?Ss(e,t,n):(Do.pad=n,Do.soft=o?0:null,Do.mode=o?3:0,Ss(e,t,Ed))}function ce(e,t){return e??t}function Ad(e,t,n){for(t=ce(t,0),n=ce(n,e.length-1);t<=n;){if(e[t]!=null)return!0;t++}return!1}function Ss(e,t,n){let o=n.min,l=n.max,r=ce(o.pad,0),a=ce(l.pad,0),i=ce(o.hard,-ge),d=ce(l.hard,ge),h=ce(o.soft,ge),$=ce(l.soft,-ge),f=ce(o.mode,0),g=ce(l.mode,0),b=t-e,S=Zt(b),x=at(ze(e),ze(t)),v=Zt(x),D=ze(v-S);(b<1e-24||D>10)&&(b=0,(e==0||t==0)&&(b=1e-24,f==2&&h!=ge&&(r=0),g==2&&$!=-ge&&(a=0)));let w=b||x||1e3,E=Zt(w),C=to(10,bt(E)),K=w*(b==0?e==0?.1:1:r),N=be(ni(e-K,C/10),24),J=e>=h&&(f==1||f==3&&N<=h||f==2&&N>=h)?h:ge,B=at(i,N<J&&e>=J?J:Mt(J,N)),Z=w*(b==0?t==0?.1:1:a),W=be(ul(t+Z,C/10),24),T=t<=$&&(g==1||g==3&&W>=$||g==2&&W<=$)?$:-ge,j=Mt(d,W>T&&t<=T?T:at(T,W));return B==j&&B==0&&(j=100),[B,j]}var Pd=new Intl.NumberFormat(ro?Sd.language:"en-US"),Rr=e=>Pd.format(e),_t=Math,rl=_t.PI,ze=_t.abs,bt=_t.floor,He=_t.round,Et=_t.ceil,Mt=_t.min,at=_t.max,to=_t.pow,ks=_t.sign,Zt=_t.log10,Zs=_t.log2,Td=(e,t=1)=>_t.sinh(e)*t,hr=(e,t=1)=>_t.asinh(e/t),ge=1/0;function xs(e){return(Zt((e^e>>31)-(e>>31))|0)+1}function wr(e,t,n){return Mt(at(e,t),n)}function Xs(e){return typeof e=="function"}function oe(e){return Xs(e)?e:()=>e}var Dd=()=>{},ei=e=>e,ti=(e,t)=>t,Id=e=>null,Cs=e=>!0,Es=(e,t)=>e==t,Rd=/\.\d*?(?=9{6,}|0{6,})/gm,Pn=e=>{if(li(e)||fn.has(e))return e;let t=`${e}`,n=t.match(Rd);if(n==null)return e;let o=n[0].length-1;if(t.indexOf("e-")!=-1){let[l,r]=t.split("e");return+`${Pn(l)}e${r}`}return be(e,o)};function xn(e,t){return Pn(be(Pn(e/t))*t)}function ul(e,t){return Pn(Et(Pn(e/t))*t)}function ni(e,t){return Pn(bt(Pn(e/t))*t)}function be(e,t=0){if(li(e))return e;let n=10**t,o=e*n*(1+Number.EPSILON);return He(o)/n}var fn=new Map;function oi(e){return((""+e).split(".")[1]||"").length}function Ro(e,t,n,o){let l=[],r=o.map(oi);for(let a=t;a<n;a++){let i=ze(a),d=be(to(e,a),i);for(let h=0;h<o.length;h++){let $=e==10?+`${o[h]}e${a}`:o[h]*d,f=(a>=0?0:i)+(a>=r[h]?0:r[h]),g=e==10?$:be($,f);l.push(g),fn.set(g,f)}}return l}var Io={},Lr=[],no=[null,null],un=Array.isArray,li=Number.isInteger,Ld=e=>e===void 0;function As(e){return typeof e=="string"}function fl(e){let t=!1;if(e!=null){let n=e.constructor;t=n==null||n==Object}return t}function Md(e){return e!=null&&typeof e=="object"}var Nd=Object.getPrototypeOf(Uint8Array),ri="__proto__";function oo(e,t=fl){let n;if(un(e)){let o=e.find(l=>l!=null);if(un(o)||t(o)){n=Array(e.length);for(let l=0;l<e.length;l++)n[l]=oo(e[l],t)}else n=e.slice()}else if(e instanceof Nd)n=e.slice();else if(t(e)){n={};for(let o in e)o!=ri&&(n[o]=oo(e[o],t))}else n=e;return n}function Oe(e){let t=arguments;for(let n=1;n<t.length;n++){let o=t[n];for(let l in o)l!=ri&&(fl(e[l])?Oe(e[l],oo(o[l])):e[l]=oo(o[l]))}return e}var Od=0,Fd=1,Ud=2;function Vd(e,t,n){for(let o=0,l,r=-1;o<t.length;o++){let a=t[o];if(a>r){for(l=a-1;l>=0&&e[l]==null;)e[l--]=null;for(l=a+1;l<n&&e[l]==null;)e[r=l++]=null}}}function Hd(e,t){if(Bd(e)){let a=e[0].slice();for(let i=1;i<e.length;i++)a.push(...e[i].slice(1));return jd(a[0])||(a=Wd(a)),a}let n=new Set;for(let a=0;a<e.length;a++){let d=e[a][0],h=d.length;for(let $=0;$<h;$++)n.add(d[$])}let o=[Array.from(n).sort((a,i)=>a-i)],l=o[0].length,r=new Map;for(let a=0;a<l;a++)r.set(o[0][a],a);for(let a=0;a<e.length;a++){let i=e[a],d=i[0];for(let h=1;h<i.length;h++){let $=i[h],f=Array(l).fill(void 0),g=t?t[a][h]:Fd,b=[];for(let S=0;S<$.length;S++){let x=$[S],v=r.get(d[S]);x===null?g!=Od&&(f[v]=x,g==Ud&&b.push(v)):f[v]=x}Vd(f,b,l),o.push(f)}}return o}var zd=typeof queueMicrotask>"u"?e=>Promise.resolve().then(e):queueMicrotask;function Wd(e){let t=e[0],n=t.length,o=Array(n);for(let r=0;r<o.length;r++)o[r]=r;o.sort((r,a)=>t[r]-t[a]);let l=[];for(let r=0;r<e.length;r++){let a=e[r],i=Array(n);for(let d=0;d<n;d++)i[d]=a[o[d]];l.push(i)}return l}function Bd(e){let t=e[0][0],n=t.length;for(let o=1;o<e.length;o++){let l=e[o][0];if(l.length!=n)return!1;if(l!=t){for(let r=0;r<n;r++)if(l[r]!=t[r])return!1}}return!0}function jd(e,t=100){let n=e.length;if(n<=1)return!0;let o=0,l=n-1;for(;o<=l&&e[o]==null;)o++;for(;l>=o&&e[l]==null;)l--;if(l<=o)return!0;let r=at(1,bt((l-o+1)/t));for(let a=e[o],i=o+r;i<=l;i+=r){let d=e[i];if(d!=null){if(d<=a)return!1;a=d}}return!0}var ai=["January","February","March","April","May","June","July","August","September","October","November","December"],si=["Sunday","Monday","Tuesday","Wednesday","Thursday","Friday","Saturday"];function ii(e){return e.slice(0,3)}var Gd=si.map(ii),Yd=ai.map(ii),qd={MMMM:ai,MMM:Yd,WWWW:si,WWW:Gd};function Eo(e){return(e<10?"0":"")+e}function Kd(e){return(e<10?"00":e<100?"0":"")+e}var Jd={YYYY:e=>e.getFullYear(),YY:e=>(e.getFullYear()+"").slice(2),MMMM:(e,t)=>t.MMMM[e.getMonth()],MMM:(e,t)=>t.MMM[e.getMonth()],MM:e=>Eo(e.getMonth()+1),M:e=>e.getMonth()+1,DD:e=>Eo(e.getDate()),D:e=>e.getDate(),WWWW:(e,t)=>t.WWWW[e.getDay()],WWW:(e,t)=>t.WWW[e.getDay()],HH:e=>Eo(e.getHours()),H:e=>e.getHours(),h:e=>{let t=e.getHours();return t==0?12:t>12?t-12:t},AA:e=>e.getHours()>=12?"PM":"AM",aa:e=>e.getHours()>=12?"pm":"am",a:e=>e.getHours()>=12?"p":"a",mm:e=>Eo(e.getMinutes()),m:e=>e.getMinutes(),ss:e=>Eo(e.getSeconds()),s:e=>e.getSeconds(),fff:e=>Kd(e.getMilliseconds())};function Mr(e,t){t=t||qd;let n=[],o=/\{([a-z]+)\}|[^{]+/gi,l;for(;l=o.exec(e);)n.push(l[0][0]=="{"?Jd[l[1]]:l[0]);return r=>{let a="";for(let i=0;i<n.length;i++)a+=typeof n[i]=="string"?n[i]:n[i](r,t);return a}}var Qd=new Intl.DateTimeFormat().resolvedOptions().timeZone;function Zd(e,t){let n;return t=="UTC"||t=="Etc/UTC"?n=new Date(+e+e.getTimezoneOffset()*6e4):t==Qd?n=e:(n=new Date(e.toLocaleString("en-US",{timeZone:t})),n.setMilliseconds(e.getMilliseconds())),n}var ci=e=>e%1==0,il=[1,2,2.5,5],Xd=Ro(10,-32,0,il),di=Ro(10,0,32,il),eu=di.filter(ci),Cn=Xd.concat(di),Nr=`
`,ui="{YYYY}",Ps=Nr+ui,fi="{M}/{D}",To=Nr+fi,ol=To+"/{YY}",pi="{aa}",tu="{h}:{mm}",Xn=tu+pi,Ts=Nr+Xn,Ds=":{ss}",pe=null;function hi(e){let t=e*1e3,n=t*60,o=n*60,l=o*24,r=l*30,a=l*365,d=(e==1?Ro(10,0,3,il).filter(ci):Ro(10,-3,0,il)).concat([t,t*5,t*10,t*15,t*30,n,n*5,n*10,n*15,n*30,o,o*2,o*3,o*4,o*6,o*8,o*12,l,l*2,l*3,l*4,l*5,l*6,l*7,l*8,l*9,l*10,l*15,r,r*2,r*3,r*4,r*6,a,a*2,a*5,a*10,a*25,a*50,a*100]),h=[[a,ui,pe,pe,pe,pe,pe,pe,1],[l*28,"{MMM}",Ps,pe,pe,pe,pe,pe,1],[l,fi,Ps,pe,pe,pe,pe,pe,1],[o,"{h}"+pi,ol,pe,To,pe,pe,pe,1],[n,Xn,ol,pe,To,pe,pe,pe,1],[t,Ds,ol+" "+Xn,pe,To+" "+Xn,pe,Ts,pe,1],[e,Ds+".{fff}",ol+" "+Xn,pe,To+" "+Xn,pe,Ts,pe,1]];function $(f){return(g,b,S,x,v,D)=>{let w=[],E=v>=a,C=v>=r&&v<a,K=f(S),N=be(K*e,3),J=mr(K.getFullYear(),E?0:K.getMonth(),C||E?1:K.getDate()),B=be(J*e,3);if(C||E){let Z=C?v/r:0,W=E?v/a:0,T=N==B?N:be(mr(J.getFullYear()+W,J.getMonth()+Z,1)*e,3),j=new Date(He(T/e)),R=j.getFullYear(),Y=j.getMonth();for(let z=0;T<=x;z++){let le=mr(R+W*z,Y+Z*z,1),H=le-f(be(le*e,3));T=be((+le+H)*e,3),T<=x&&w.push(T)}}else{let Z=v>=l?l:v,W=bt(S)-bt(N),T=B+W+ul(N-B,Z);w.push(T);let j=f(T),R=j.getHours()+j.getMinutes()/n+j.getSeconds()/o,Y=v/o,z=g.axes[b]._space,le=D/z;for(;T=be(T+v,e==1?0:3),!(T>x);)if(Y>1){let H=bt(be(R+Y,6))%24,ae=f(T).getHours()-H;ae>1&&(ae=-1),T-=ae*o,R=(R+Y)%24;let me=w[w.length-1];be((T-me)/v,3)*le>=.7&&w.push(T)}else w.push(T)}return w}}return[d,h,$]}var[nu,ou,lu]=hi(1),[ru,au,su]=hi(.001);Ro(2,-53,53,[1]);function Is(e,t){return e.map(n=>n.map((o,l)=>l==0||l==8||o==null?o:t(l==1||n[8]==0?o:n[1]+o)))}function Rs(e,t){return(n,o,l,r,a)=>{let i=t.find(S=>a>=S[0])||t[t.length-1],d,h,$,f,g,b;return o.map(S=>{let x=e(S),v=x.getFullYear(),D=x.getMonth(),w=x.getDate(),E=x.getHours(),C=x.getMinutes(),K=x.getSeconds(),N=v!=d&&i[2]||D!=h&&i[3]||w!=$&&i[4]||E!=f&&i[5]||C!=g&&i[6]||K!=b&&i[7]||i[1];return d=v,h=D,$=w,f=E,g=C,b=K,N(x)})}}function iu(e,t){let n=Mr(t);return(o,l,r,a,i)=>l.map(d=>n(e(d)))}function mr(e,t,n){return new Date(e,t,n)}function Ls(e,t){return t(e)}var cu="{YYYY}-{MM}-{DD} {h}:{mm}{aa}";function Ms(e,t){return(n,o,l,r)=>r==null?Pr:t(e(o))}function du(e,t){let n=e.series[t];return n.width?n.stroke(e,t):n.points.width?n.points.stroke(e,t):null}function uu(e,t){return e.series[t].fill(e,t)}var fu={show:!0,live:!0,isolate:!1,mount:Dd,markers:{show:!0,width:2,stroke:du,fill:uu,dash:"solid"},idx:null,idxs:null,values:[]};function pu(e,t){let n=e.cursor.points,o=Ct(),l=n.size(e,t);ke(o,Ao,l),ke(o,Po,l);let r=l/-2;ke(o,"marginLeft",r),ke(o,"marginTop",r);let a=n.width(e,t,l);return a&&ke(o,"borderWidth",a),o}function hu(e,t){let n=e.series[t].points;return n._fill||n._stroke}function mu(e,t){let n=e.series[t].points;return n._stroke||n._fill}function $u(e,t){return e.series[t].points.size}var $r=[0,0];function gu(e,t,n){return $r[0]=t,$r[1]=n,$r}function ll(e,t,n,o=!0){return l=>{l.button==0&&(!o||l.target==t)&&n(l)}}function gr(e,t,n,o=!0){return l=>{(!o||l.target==t)&&n(l)}}var bu={show:!0,x:!0,y:!0,lock:!1,move:gu,points:{one:!1,show:pu,size:$u,width:0,stroke:mu,fill:hu},bind:{mousedown:ll,mouseup:ll,click:ll,dblclick:ll,mousemove:gr,mouseleave:gr,mouseenter:gr},drag:{setScale:!0,x:!0,y:!1,dist:0,uni:null,click:(e,t)=>{t.stopPropagation(),t.stopImmediatePropagation()},_x:!1,_y:!1},focus:{dist:(e,t,n,o,l)=>o-l,prox:-1,bias:0},hover:{skip:[void 0],prox:null,bias:0},left:-10,top:-10,idx:null,dataIdx:null,idxs:null,event:null},mi={show:!0,stroke:"rgba(0,0,0,0.07)",width:2},Or=Oe({},mi,{filter:ti}),$i=Oe({},Or,{size:10}),gi=Oe({},mi,{show:!1}),Fr='12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif, "Apple Color Emoji", "Segoe UI Emoji", "Segoe UI Symbol", "Noto Color Emoji"',bi="bold "+Fr,_i=1.5,Ns={show:!0,scale:"x",stroke:Ar,space:50,gap:5,alignTo:1,size:50,labelGap:0,labelSize:30,labelFont:bi,side:2,grid:Or,ticks:$i,border:gi,font:Fr,lineGap:_i,rotate:0},_u="Value",yu="Time",Os={show:!0,scale:"x",auto:!1,sorted:1,min:ge,max:-ge,idxs:[]};function vu(e,t,n,o,l){return t.map(r=>r==null?"":Rr(r))}function wu(e,t,n,o,l,r,a){let i=[],d=fn.get(l)||0;n=a?n:be(ul(n,l),d);for(let h=n;h<=o;h=be(h+l,d))i.push(Object.is(h,-0)?0:h);return i}function Sr(e,t,n,o,l,r,a){let i=[],d=e.scales[e.axes[t].scale].log,h=d==10?Zt:Zs,$=bt(h(n));l=to(d,$),d==10&&(l=Cn[Lt(l,Cn)]);let f=n,g=l*d;d==10&&(g=Cn[Lt(g,Cn)]);do i.push(f),f=f+l,d==10&&!fn.has(f)&&(f=be(f,fn.get(l))),f>=g&&(l=f,g=l*d,d==10&&(g=Cn[Lt(g,Cn)]));while(f<=o);return i}function Su(e,t,n,o,l,r,a){let d=e.scales[e.axes[t].scale].asinh,h=o>d?Sr(e,t,at(d,n),o,l):[d],$=o>=0&&n<=0?[0]:[];return(n<-d?Sr(e,t,at(d,-o),-n,l):[d]).reverse().map(g=>-g).concat($,h)}var yi=/./,ku=/[12357]/,xu=/[125]/,Fs=/1/,kr=(e,t,n,o)=>e.map((l,r)=>t==4&&l==0||r%o==0&&n.test(l.toExponential()[l<0?1:0])?l:null);function Cu(e,t,n,o,l){let r=e.axes[n],a=r.scale,i=e.scales[a],d=e.valToPos,h=r._space,$=d(10,a),f=d(9,a)-$>=h?yi:d(7,a)-$>=h?ku:d(5,a)-$>=h?xu:Fs;if(f==Fs){let g=ze(d(1,a)-$);if(g<h)return kr(t.slice().reverse(),i.distr,f,Et(h/g)).reverse()}return kr(t,i.distr,f,1)}function Eu(e,t,n,o,l){let r=e.axes[n],a=r.scale,i=r._space,d=e.valToPos,h=ze(d(1,a)-d(2,a));return h<i?kr(t.slice().reverse(),3,yi,Et(i/h)).reverse():t}function Au(e,t,n,o){return o==null?Pr:t==null?"":Rr(t)}var Us={show:!0,scale:"y",stroke:Ar,space:30,gap:5,alignTo:1,size:50,labelGap:0,labelSize:30,labelFont:bi,side:3,grid:Or,ticks:$i,border:gi,font:Fr,lineGap:_i,rotate:0};function Pu(e,t){let n=3+(e||1)*2;return be(n*t,3)}function Tu(e,t){let{scale:n,idxs:o}=e.series[0],l=e._data[0],r=e.valToPos(l[o[0]],n,!0),a=e.valToPos(l[o[1]],n,!0),i=ze(a-r),d=e.series[t],h=i/(d.points.space*ue);return o[1]-o[0]<=h}var Vs={scale:null,auto:!0,sorted:0,min:ge,max:-ge},vi=(e,t,n,o,l)=>l,Hs={show:!0,auto:!0,sorted:0,gaps:vi,alpha:1,facets:[Oe({},Vs,{scale:"x"}),Oe({},Vs,{scale:"y"})]},zs={scale:"y",auto:!0,sorted:0,show:!0,spanGaps:!1,gaps:vi,alpha:1,points:{show:Tu,filter:null},values:null,min:ge,max:-ge,idxs:[],path:null,clip:null};function Du(e,t,n,o,l){return n/10}var wi={time:!0,auto:!0,distr:1,log:10,asinh:1,min:null,max:null,dir:1,ori:0},Iu=Oe({},wi,{time:!1,ori:1}),Ws={};function Si(e,t){let n=Ws[e];return n||(n={key:e,plots:[],sub(o){n.plots.push(o)},unsub(o){n.plots=n.plots.filter(l=>l!=o)},pub(o,l,r,a,i,d,h){for(let $=0;$<n.plots.length;$++)n.plots[$]!=l&&n.plots[$].pub(o,l,r,a,i,d,h)}},e!=null&&(Ws[e]=n)),n}var lo=1,xr=2;function Tn(e,t,n){let o=e.mode,l=e.series[t],r=o==2?e._data[t]:e._data,a=e.scales,i=e.bbox,d=r[0],h=o==2?r[1]:r[t],$=o==2?a[l.facets[0].scale]:a[e.series[0].scale],f=o==2?a[l.facets[1].scale]:a[l.scale],g=i.left,b=i.top,S=i.width,x=i.height,v=e.valToPosH,D=e.valToPosV;return $.ori==0?n(l,d,h,$,f,v,D,g,b,S,x,hl,ao,$l,xi,Ei):n(l,d,h,$,f,D,v,b,g,x,S,ml,so,Hr,Ci,Ai)}function Ur(e,t){let n=0,o=0,l=ce(e.bands,Lr);for(let r=0;r<l.length;r++){let a=l[r];a.series[0]==t?n=a.dir:a.series[1]==t&&(a.dir==1?o|=1:o|=2)}return[n,o==1?-1:o==2?1:o==3?2:0]}function Ru(e,t,n,o,l){let r=e.mode,a=e.series[t],i=r==2?a.facets[1].scale:a.scale,d=e.scales[i];return l==-1?d.min:l==1?d.max:d.distr==3?d.dir==1?d.min:d.max:0}function Xt(e,t,n,o,l,r){return Tn(e,t,(a,i,d,h,$,f,g,b,S,x,v)=>{let D=a.pxRound,w=h.dir*(h.ori==0?1:-1),E=h.ori==0?ao:so,C,K;w==1?(C=n,K=o):(C=o,K=n);let N=D(f(i[C],h,x,b)),J=D(g(d[C],$,v,S)),B=D(f(i[K],h,x,b)),Z=D(g(r==1?$.max:$.min,$,v,S)),W=new Path2D(l);return E(W,B,Z),E(W,N,Z),E(W,N,J),W})}function pl(e,t,n,o,l,r){let a=null;if(e.length>0){a=new Path2D;let i=t==0?$l:Hr,d=n;for(let f=0;f<e.length;f++){let g=e[f];if(g[1]>g[0]){let b=g[0]-d;b>0&&i(a,d,o,b,o+r),d=g[1]}}let h=n+l-d,$=10;h>0&&i(a,d,o-$/2,h,o+r+$)}return a}function Lu(e,t,n){let o=e[e.length-1];o&&o[0]==t?o[1]=n:e.push([t,n])}function Vr(e,t,n,o,l,r,a){let i=[],d=e.length;for(let h=l==1?n:o;h>=n&&h<=o;h+=l)if(t[h]===null){let f=h,g=h;if(l==1)for(;++h<=o&&t[h]===null;)g=h;else for(;--h>=n&&t[h]===null;)g=h;let b=r(e[f]),S=g==f?b:r(e[g]),x=f-l;b=a<=0&&x>=0&&x<d?r(e[x]):b;let D=g+l;S=a>=0&&D>=0&&D<d?r(e[D]):S,S>=b&&i.push([b,S])}return i}function Bs(e){return e==0?ei:e==1?He:t=>xn(t,e)}function ki(e){let t=e==0?hl:ml,n=e==0?(l,r,a,i,d,h)=>{l.arcTo(r,a,i,d,h)}:(l,r,a,i,d,h)=>{l.arcTo(a,r,d,i,h)},o=e==0?(l,r,a,i,d)=>{l.rect(r,a,i,d)}:(l,r,a,i,d)=>{l.rect(a,r,d,i)};return(l,r,a,i,d,h=0,$=0)=>{h==0&&$==0?o(l,r,a,i,d):(h=Mt(h,i/2,d/2),$=Mt($,i/2,d/2),t(l,r+h,a),n(l,r+i,a,r+i,a+d,h),n(l,r+i,a+d,r,a+d,$),n(l,r,a+d,r,a,$),n(l,r,a,r+i,a,h),l.closePath())}}var hl=(e,t,n)=>{e.moveTo(t,n)},ml=(e,t,n)=>{e.moveTo(n,t)},ao=(e,t,n)=>{e.lineTo(t,n)},so=(e,t,n)=>{e.lineTo(n,t)},$l=ki(0),Hr=ki(1),xi=(e,t,n,o,l,r)=>{e.arc(t,n,o,l,r)},Ci=(e,t,n,o,l,r)=>{e.arc(n,t,o,l,r)},Ei=(e,t,n,o,l,r,a)=>{e.bezierCurveTo(t,n,o,l,r,a)},Ai=(e,t,n,o,l,r,a)=>{e.bezierCurveTo(n,t,l,o,a,r)};function Pi(e){return(t,n,o,l,r)=>Tn(t,n,(a,i,d,h,$,f,g,b,S,x,v)=>{let{pxRound:D,points:w}=a,E,C;h.ori==0?(E=hl,C=xi):(E=ml,C=Ci);let K=be(w.width*ue,3),N=(w.size-w.width)/2*ue,J=be(N*2,3),B=new Path2D,Z=new Path2D,{left:W,top:T,width:j,height:R}=t.bbox;$l(Z,W-J,T-J,j+J*2,R+J*2);let Y=z=>{if(d[z]!=null){let le=D(f(i[z],h,x,b)),H=D(g(d[z],$,v,S));E(B,le+N,H),C(B,le,H,N,0,rl*2)}};if(r)r.forEach(Y);else for(let z=o;z<=l;z++)Y(z);return{stroke:K>0?B:null,fill:B,clip:Z,flags:lo|xr}})}function Ti(e){return(t,n,o,l,r,a)=>{o!=l&&(r!=o&&a!=o&&e(t,n,o),r!=l&&a!=l&&e(t,n,l),e(t,n,a))}}var Mu=Ti(ao),Nu=Ti(so);function Di(e){let t=ce(e?.alignGaps,0);return(n,o,l,r)=>Tn(n,o,(a,i,d,h,$,f,g,b,S,x,v)=>{[l,r]=cl(d,l,r);let D=a.pxRound,w=R=>D(f(R,h,x,b)),E=R=>D(g(R,$,v,S)),C,K;h.ori==0?(C=ao,K=Mu):(C=so,K=Nu);let N=h.dir*(h.ori==0?1:-1),J={stroke:new Path2D,fill:null,clip:null,band:null,gaps:null,flags:lo},B=J.stroke,Z=!1;if(r-l>=x*4){let R=U=>n.posToVal(U,h.key,!0),Y=null,z=null,le,H,st,xe=w(i[N==1?l:r]),ae=w(i[l]),me=w(i[r]),ee=R(N==1?ae+1:me-1);for(let U=N==1?l:r;U>=l&&U<=r;U+=N){let Fe=i[U],Ce=(N==1?Fe<ee:Fe>ee)?xe:w(Fe),fe=d[U];Ce==xe?fe!=null?(H=fe,Y==null?(C(B,Ce,E(H)),le=Y=z=H):H<Y?Y=H:H>z&&(z=H)):fe===null&&(Z=!0):(Y!=null&&K(B,xe,E(Y),E(z),E(le),E(H)),fe!=null?(H=fe,C(B,Ce,E(H)),Y=z=le=H):(Y=z=null,fe===null&&(Z=!0)),xe=Ce,ee=R(xe+N))}Y!=null&&Y!=z&&st!=xe&&K(B,xe,E(Y),E(z),E(le),E(H))}else for(let R=N==1?l:r;R>=l&&R<=r;R+=N){let Y=d[R];Y===null?Z=!0:Y!=null&&C(B,w(i[R]),E(Y))}let[T,j]=Ur(n,o);if(a.fill!=null||T!=0){let R=J.fill=new Path2D(B),Y=a.fillTo(n,o,a.min,a.max,T),z=E(Y),le=w(i[l]),H=w(i[r]);N==-1&&([H,le]=[le,H]),C(R,H,z),C(R,le,z)}if(!a.spanGaps){let R=[];Z&&R.push(...Vr(i,d,l,r,N,w,t)),J.gaps=R=a.gaps(n,o,l,r,R),J.clip=pl(R,h.ori,b,S,x,v)}return j!=0&&(J.band=j==2?[Xt(n,o,l,r,B,-1),Xt(n,o,l,r,B,1)]:Xt(n,o,l,r,B,j)),J})}function Ou(e){let t=ce(e.align,1),n=ce(e.ascDesc,!1),o=ce(e.alignGaps,0),l=ce(e.extend,!1);return(r,a,i,d)=>Tn(r,a,(h,$,f,g,b,S,x,v,D,w,E)=>{[i,d]=cl(f,i,d);let C=h.pxRound,{left:K,width:N}=r.bbox,J=ae=>C(S(ae,g,w,v)),B=ae=>C(x(ae,b,E,D)),Z=g.ori==0?ao:so,W={stroke:new Path2D,fill:null,clip:null,band:null,gaps:null,flags:lo},T=W.stroke,j=g.dir*(g.ori==0?1:-1),R=B(f[j==1?i:d]),Y=J($[j==1?i:d]),z=Y,le=Y;l&&t==-1&&(le=K,Z(T,le,R)),Z(T,Y,R);for(let ae=j==1?i:d;ae>=i&&ae<=d;ae+=j){let me=f[ae];if(me==null)continue;let ee=J($[ae]),U=B(me);t==1?Z(T,ee,R):Z(T,z,U),Z(T,ee,U),R=U,z=ee}let H=z;l&&t==1&&(H=K+N,Z(T,H,R));let[st,xe]=Ur(r,a);if(h.fill!=null||st!=0){let ae=W.fill=new Path2D(T),me=h.fillTo(r,a,h.min,h.max,st),ee=B(me);Z(ae,H,ee),Z(ae,le,ee)}if(!h.spanGaps){let ae=[];ae.push(...Vr($,f,i,d,j,J,o));let me=h.width*ue/2,ee=n||t==1?me:-me,U=n||t==-1?-me:me;ae.forEach(Fe=>{Fe[0]+=ee,Fe[1]+=U}),W.gaps=ae=h.gaps(r,a,i,d,ae),W.clip=pl(ae,g.ori,v,D,w,E)}return xe!=0&&(W.band=xe==2?[Xt(r,a,i,d,T,-1),Xt(r,a,i,d,T,1)]:Xt(r,a,i,d,T,xe)),W})}function js(e,t,n,o,l,r,a=ge){if(e.length>1){let i=null;for(let d=0,h=1/0;d<e.length;d++)if(t[d]!==void 0){if(i!=null){let $=ze(e[d]-e[i]);$<h&&(h=$,a=ze(n(e[d],o,l,r)-n(e[i],o,l,r)))}i=d}}return a}function Fu(e){e=e||Io;let t=ce(e.size,[.6,ge,1]),n=e.align||0,o=e.gap||0,l=e.radius;l=l==null?[0,0]:typeof l=="number"?[l,0]:l;let r=oe(l),a=1-t[0],i=ce(t[1],ge),d=ce(t[2],1),h=ce(e.disp,Io),$=ce(e.each,b=>{}),{fill:f,stroke:g}=h;return(b,S,x,v)=>Tn(b,S,(D,w,E,C,K,N,J,B,Z,W,T)=>{let j=D.pxRound,R=n,Y=o*ue,z=i*ue,le=d*ue,H,st;C.ori==0?[H,st]=r(b,S):[st,H]=r(b,S);let xe=C.dir*(C.ori==0?1:-1),ae=C.ori==0?$l:Hr,me=C.ori==0?$:(M,_e,Ue,Mn,mn,Ot,$n)=>{$(M,_e,Ue,mn,Mn,$n,Ot)},ee=ce(b.bands,Lr).find(M=>M.series[0]==S),U=ee!=null?ee.dir:0,Fe=D.fillTo(b,S,D.min,D.max,U),et=j(J(Fe,K,T,Z)),Ce,fe,At,ft=W,Pe=j(D.width*ue),Nt=!1,qt=null,yt=null,tn=null,In=null;f!=null&&(Pe==0||g!=null)&&(Nt=!0,qt=f.values(b,S,x,v),yt=new Map,new Set(qt).forEach(M=>{M!=null&&yt.set(M,new Path2D)}),Pe>0&&(tn=g.values(b,S,x,v),In=new Map,new Set(tn).forEach(M=>{M!=null&&In.set(M,new Path2D)})));let{x0:Rn,size:uo}=h;if(Rn!=null&&uo!=null){R=1,w=Rn.values(b,S,x,v),Rn.unit==2&&(w=w.map(Ue=>b.posToVal(B+Ue*W,C.key,!0)));let M=uo.values(b,S,x,v);uo.unit==2?fe=M[0]*W:fe=N(M[0],C,W,B)-N(0,C,W,B),ft=js(w,E,N,C,W,B,ft),At=ft-fe+Y}else ft=js(w,E,N,C,W,B,ft),At=ft*a+Y,fe=ft-At;At<1&&(At=0),Pe>=fe/2&&(Pe=0),At<5&&(j=ei);let No=At>0,pn=ft-At-(No?Pe:0);fe=j(wr(pn,le,z)),Ce=(R==0?fe/2:R==xe?0:fe)-R*xe*((R==0?Y/2:0)+(No?Pe/2:0));let tt={stroke:null,fill:null,clip:null,band:null,gaps:null,flags:0},Ln=Nt?null:new Path2D,Kt=null;if(ee!=null)Kt=b.data[ee.series[1]];else{let{y0:M,y1:_e}=h;M!=null&&_e!=null&&(E=_e.values(b,S,x,v),Kt=M.values(b,S,x,v))}let hn=H*fe,Q=st*fe;for(let M=xe==1?x:v;M>=x&&M<=v;M+=xe){let _e=E[M];if(_e==null)continue;if(Kt!=null){let it=Kt[M]??0;if(_e-it==0)continue;et=J(it,K,T,Z)}let Ue=C.distr!=2||h!=null?w[M]:M,Mn=N(Ue,C,W,B),mn=J(ce(_e,Fe),K,T,Z),Ot=j(Mn-Ce),$n=j(at(mn,et)),pt=j(Mt(mn,et)),vt=$n-pt;if(_e!=null){let it=_e<0?Q:hn,Pt=_e<0?hn:Q;Nt?(Pe>0&&tn[M]!=null&&ae(In.get(tn[M]),Ot,pt+bt(Pe/2),fe,at(0,vt-Pe),it,Pt),qt[M]!=null&&ae(yt.get(qt[M]),Ot,pt+bt(Pe/2),fe,at(0,vt-Pe),it,Pt)):ae(Ln,Ot,pt+bt(Pe/2),fe,at(0,vt-Pe),it,Pt),me(b,S,M,Ot-Pe/2,pt,fe+Pe,vt)}}return Pe>0?tt.stroke=Nt?In:Ln:Nt||(tt._fill=D.width==0?D._fill:D._stroke??D._fill,tt.width=0),tt.fill=Nt?yt:Ln,tt})}function Uu(e,t){let n=ce(t?.alignGaps,0);return(o,l,r,a)=>Tn(o,l,(i,d,h,$,f,g,b,S,x,v,D)=>{[r,a]=cl(h,r,a);let w=i.pxRound,E=H=>w(g(H,$,v,S)),C=H=>w(b(H,f,D,x)),K,N,J;$.ori==0?(K=hl,J=ao,N=Ei):(K=ml,J=so,N=Ai);let B=$.dir*($.ori==0?1:-1),Z=E(d[B==1?r:a]),W=Z,T=[],j=[];for(let H=B==1?r:a;H>=r&&H<=a;H+=B)if(h[H]!=null){let xe=d[H],ae=E(xe);T.push(W=ae),j.push(C(h[H]))}let R={stroke:e(T,j,K,J,N,w),fill:null,clip:null,band:null,gaps:null,flags:lo},Y=R.stroke,[z,le]=Ur(o,l);if(i.fill!=null||z!=0){let H=R.fill=new Path2D(Y),st=i.fillTo(o,l,i.min,i.max,z),xe=C(st);J(H,W,xe),J(H,Z,xe)}if(!i.spanGaps){let H=[];H.push(...Vr(d,h,r,a,B,E,n)),R.gaps=H=i.gaps(o,l,r,a,H),R.clip=pl(H,$.ori,S,x,v,D)}return le!=0&&(R.band=le==2?[Xt(o,l,r,a,Y,-1),Xt(o,l,r,a,Y,1)]:Xt(o,l,r,a,Y,le)),R})}function Vu(e){return Uu(Hu,e)}function Hu(e,t,n,o,l,r){let a=e.length;if(a<2)return null;let i=new Path2D;if(n(i,e[0],t[0]),a==2)o(i,e[1],t[1]);else{let d=Array(a),h=Array(a-1),$=Array(a-1),f=Array(a-1);for(let g=0;g<a-1;g++)$[g]=t[g+1]-t[g],f[g]=e[g+1]-e[g],h[g]=$[g]/f[g];d[0]=h[0];for(let g=1;g<a-1;g++)h[g]===0||h[g-1]===0||h[g-1]>0!=h[g]>0?d[g]=0:(d[g]=3*(f[g-1]+f[g])/((2*f[g]+f[g-1])/h[g-1]+(f[g]+2*f[g-1])/h[g]),isFinite(d[g])||(d[g]=0));d[a-1]=h[a-2];for(let g=0;g<a-1;g++)l(i,e[g]+f[g]/3,t[g]+d[g]*f[g]/3,e[g+1]-f[g]/3,t[g+1]-d[g+1]*f[g]/3,e[g+1],t[g+1])}return i}var Cr=new Set;function Gs(){for(let e of Cr)e.syncRect(!0)}ro&&(An(vd,eo,Gs),An(wd,eo,Gs,!0),An(al,eo,()=>{Ke.pxRatio=ue}));var zu=Di(),Wu=Pi();function Ys(e,t,n,o){return(o?[e[0],e[1]].concat(e.slice(2)):[e[0]].concat(e.slice(1))).map((r,a)=>Er(r,a,t,n))}function Bu(e,t){return e.map((n,o)=>o==0?{}:Oe({},t,n))}function Er(e,t,n,o){return Oe({},t==0?n:o,e)}function Ii(e,t,n){return t==null?no:[t,n]}var ju=Ii;function Gu(e,t,n){return t==null?no:sl(t,n,Ir,!0)}function Ri(e,t,n,o){return t==null?no:dl(t,n,e.scales[o].log,!1)}var Yu=Ri;function Li(e,t,n,o){return t==null?no:Dr(t,n,e.scales[o].log,!1)}var qu=Li;function Ku(e,t,n,o,l){let r=at(xs(e),xs(t)),a=t-e,i=Lt(l/o*a,n);do{let d=n[i],h=o*d/a;if(h>=l&&r+(d<5?fn.get(d):0)<=17)return[d,h]}while(++i<n.length);return[0,0]}function qs(e){let t,n;return e=e.replace(/(\d+)px/,(o,l)=>(t=He((n=+l)*ue))+"px"),[e,t,n]}function Ju(e){e.show&&[e.font,e.labelFont].forEach(t=>{let n=be(t[2]*ue,1);t[0]=t[0].replace(/[0-9.]+px/,n+"px"),t[1]=n})}function Ke(e,t,n){let o={mode:ce(e.mode,1)},l=o.mode;function r(s,c,p,m){let _=c.valToPct(s);return m+p*(c.dir==-1?1-_:_)}function a(s,c,p,m){let _=c.valToPct(s);return m+p*(c.dir==-1?_:1-_)}function i(s,c,p,m){return c.ori==0?r(s,c,p,m):a(s,c,p,m)}o.valToPosH=r,o.valToPosV=a;let d=!1;o.status=0;let h=o.root=Ct(od);if(e.id!=null&&(h.id=e.id),gt(h,e.class),e.title){let s=Ct(ad,h);s.textContent=e.title}let $=Rt("canvas"),f=o.ctx=$.getContext("2d"),g=Ct(sd,h);An("click",g,s=>{s.target===S&&(ve!=Gn||Ee!=Yn)&&Qe.click(o,s)},!0);let b=o.under=Ct(id,g);g.appendChild($);let S=o.over=Ct(cd,g);e=oo(e);let x=+ce(e.pxAlign,1),v=Bs(x);(e.plugins||[]).forEach(s=>{s.opts&&(e=s.opts(o,e)||e)});let D=e.ms||.001,w=o.series=l==1?Ys(e.series||[],Os,zs,!1):Bu(e.series||[null],Hs),E=o.axes=Ys(e.axes||[],Ns,Us,!0),C=o.scales={},K=o.bands=e.bands||[];K.forEach(s=>{s.fill=oe(s.fill||null),s.dir=ce(s.dir,-1)});let N=l==2?w[1].facets[0].scale:w[0].scale,J={axes:wc,series:gc},B=(e.drawOrder||["axes","series"]).map(s=>J[s]);function Z(s){let c=s.distr==3?p=>Zt(p>0?p:s.clamp(o,p,s.min,s.max,s.key)):s.distr==4?p=>hr(p,s.asinh):s.distr==100?p=>s.fwd(p):p=>p;return p=>{let m=c(p),{_min:_,_max:y}=s,k=y-_;return(m-_)/k}}function W(s){let c=C[s];if(c==null){let p=(e.scales||Io)[s]||Io;if(p.from!=null){W(p.from);let m=Oe({},C[p.from],p,{key:s});m.valToPct=Z(m),C[s]=m}else{c=C[s]=Oe({},s==N?wi:Iu,p),c.key=s;let m=c.time,_=c.range,y=un(_);if((s!=N||l==2&&!m)&&(y&&(_[0]==null||_[1]==null)&&(_={min:_[0]==null?ws:{mode:1,hard:_[0],soft:_[0]},max:_[1]==null?ws:{mode:1,hard:_[1],soft:_[1]}},y=!1),!y&&fl(_))){let k=_;_=(A,P,I)=>P==null?no:sl(P,I,k)}c.range=oe(_||(m?ju:s==N?c.distr==3?Yu:c.distr==4?qu:Ii:c.distr==3?Ri:c.distr==4?Li:Gu)),c.auto=oe(y?!1:c.auto),c.clamp=oe(c.clamp||Du),c._min=c._max=null,c.valToPct=Z(c)}}}W("x"),W("y"),l==1&&w.forEach(s=>{W(s.scale)}),E.forEach(s=>{W(s.scale)});for(let s in e.scales)W(s);let T=C[N],j=T.distr,R,Y;T.ori==0?(gt(h,ld),R=r,Y=a):(gt(h,rd),R=a,Y=r);let z={};for(let s in C){let c=C[s];(c.min!=null||c.max!=null)&&(z[s]={min:c.min,max:c.max},c.min=c.max=null)}let le=e.tzDate||(s=>new Date(He(s/D))),H=e.fmtDate||Mr,st=D==1?lu(le):su(le),xe=Rs(le,Is(D==1?ou:au,H)),ae=Ms(le,Ls(cu,H)),me=[],ee=o.legend=Oe({},fu,e.legend),U=o.cursor=Oe({},bu,{drag:{y:l==2}},e.cursor),Fe=ee.show,et=U.show,Ce=ee.markers;ee.idxs=me,Ce.width=oe(Ce.width),Ce.dash=oe(Ce.dash),Ce.stroke=oe(Ce.stroke),Ce.fill=oe(Ce.fill);let fe,At,ft,Pe=[],Nt=[],qt,yt=!1,tn={};if(ee.live){let s=w[1]?w[1].values:null;yt=s!=null,qt=yt?s(o,1,0):{_:0};for(let c in qt)tn[c]=Pr}if(Fe)if(fe=Rt("table",md,h),ft=Rt("tbody",null,fe),ee.mount(o,fe),yt){At=Rt("thead",null,fe,ft);let s=Rt("tr",null,At);Rt("th",null,s);for(var In in qt)Rt("th",cs,s).textContent=In}else gt(fe,gd),ee.live&&gt(fe,$d);let Rn={show:!0},uo={show:!1};function No(s,c){if(c==0&&(yt||!ee.live||l==2))return no;let p=[],m=Rt("tr",bd,ft,ft.childNodes[c]);gt(m,s.class),s.show||gt(m,En);let _=Rt("th",null,m);if(Ce.show){let A=Ct(_d,_);if(c>0){let P=Ce.width(o,c);P&&(A.style.border=P+"px "+Ce.dash(o,c)+" "+Ce.stroke(o,c)),A.style.background=Ce.fill(o,c)}}let y=Ct(cs,_);s.label instanceof HTMLElement?y.appendChild(s.label):y.textContent=s.label,c>0&&(Ce.show||(y.style.color=s.width>0?Ce.stroke(o,c):Ce.fill(o,c)),tt("click",_,A=>{if(U._lock)return;bn(A);let P=w.indexOf(s);if((A.ctrlKey||A.metaKey)!=ee.isolate){let I=w.some((L,O)=>O>0&&O!=P&&L.show);w.forEach((L,O)=>{O>0&&Ut(O,I?O==P?Rn:uo:Rn,!0,Me.setSeries)})}else Ut(P,{show:!s.show},!0,Me.setSeries)},!1),On&&tt(ps,_,A=>{U._lock||(bn(A),Ut(w.indexOf(s),Kn,!0,Me.setSeries))},!1));for(var k in qt){let A=Rt("td",yd,m);A.textContent="--",p.push(A)}return[m,p]}let pn=new Map;function tt(s,c,p,m=!0){let _=pn.get(c)||{},y=U.bind[s](o,c,p,m);y&&(An(s,c,_[s]=y),pn.set(c,_))}function Ln(s,c,p){let m=pn.get(c)||{};for(let _ in m)(s==null||_==s)&&(vr(_,c,m[_]),delete m[_]);s==null&&pn.delete(c)}let Kt=0,hn=0,Q=0,M=0,_e=0,Ue=0,Mn=_e,mn=Ue,Ot=Q,$n=M,pt=0,vt=0,it=0,Pt=0;o.bbox={};let kl=!1,Oo=!1,Nn=!1,gn=!1,Fo=!1,wt=!1;function xl(s,c,p){(p||s!=o.width||c!=o.height)&&Jr(s,c),zn(!1),Nn=!0,Oo=!0,Wn()}function Jr(s,c){o.width=Kt=Q=s,o.height=hn=M=c,_e=Ue=0,dc(),uc();let p=o.bbox;pt=p.left=xn(_e*ue,.5),vt=p.top=xn(Ue*ue,.5),it=p.width=xn(Q*ue,.5),Pt=p.height=xn(M*ue,.5)}let sc=3;function ic(){let s=!1,c=0;for(;!s;){c++;let p=yc(c),m=vc(c);s=c==sc||p&&m,s||(Jr(o.width,o.height),Oo=!0)}}function cc({width:s,height:c}){xl(s,c)}o.setSize=cc;function dc(){let s=!1,c=!1,p=!1,m=!1;E.forEach((_,y)=>{if(_.show&&_._show){let{side:k,_size:A}=_,P=k%2,I=_.label!=null?_.labelSize:0,L=A+I;L>0&&(P?(Q-=L,k==3?(_e+=L,m=!0):p=!0):(M-=L,k==0?(Ue+=L,s=!0):c=!0))}}),_n[0]=s,_n[1]=p,_n[2]=c,_n[3]=m,Q-=nn[1]+nn[3],_e+=nn[3],M-=nn[2]+nn[0],Ue+=nn[0]}function uc(){let s=_e+Q,c=Ue+M,p=_e,m=Ue;function _(y,k){switch(y){case 1:return s+=k,s-k;case 2:return c+=k,c-k;case 3:return p-=k,p+k;case 0:return m-=k,m+k}}E.forEach((y,k)=>{if(y.show&&y._show){let A=y.side;y._pos=_(A,y._size),y.label!=null&&(y._lpos=_(A,y.labelSize))}})}if(U.dataIdx==null){let s=U.hover,c=s.skip=new Set(s.skip??[]);c.add(void 0);let p=s.prox=oe(s.prox),m=s.bias??(s.bias=0);U.dataIdx=(_,y,k,A)=>{if(y==0)return k;let P=k,I=p(_,y,k,A)??ge,L=I>=0&&I<ge,O=T.ori==0?Q:M,q=U.left,de=t[0],se=t[y];if(c.has(se[k])){P=null;let te=null,G=null,V;if(m==0||m==-1)for(V=k;te==null&&V-- >0;)c.has(se[V])||(te=V);if(m==0||m==1)for(V=k;G==null&&V++<se.length;)c.has(se[V])||(G=V);if(te!=null||G!=null)if(L){let Se=te==null?-1/0:R(de[te],T,O,0),De=G==null?1/0:R(de[G],T,O,0),qe=q-Se,$e=De-q;qe<=$e?qe<=I&&(P=te):$e<=I&&(P=G)}else P=G==null?te:te==null?G:k-te<=G-k?te:G}else L&&ze(q-R(de[k],T,O,0))>I&&(P=null);return P}}let bn=s=>{U.event=s};U.idxs=me,U._lock=!1;let Ze=U.points;Ze.show=oe(Ze.show),Ze.size=oe(Ze.size),Ze.stroke=oe(Ze.stroke),Ze.width=oe(Ze.width),Ze.fill=oe(Ze.fill);let Ft=o.focus=Oe({},e.focus||{alpha:.3},U.focus),On=Ft.prox>=0,Fn=On&&Ze.one,St=[],Un=[],Vn=[];function Qr(s,c){let p=Ze.show(o,c);if(p instanceof HTMLElement)return gt(p,hd),gt(p,s.class),Yt(p,-10,-10,Q,M),S.insertBefore(p,St[c]),p}function Zr(s,c){if(l==1||c>0){let p=l==1&&C[s.scale].time,m=s.value;s.value=p?As(m)?Ms(le,Ls(m,H)):m||ae:m||Au,s.label=s.label||(p?yu:_u)}if(Fn||c>0){s.width=s.width==null?1:s.width,s.paths=s.paths||zu||Id,s.fillTo=oe(s.fillTo||Ru),s.pxAlign=+ce(s.pxAlign,x),s.pxRound=Bs(s.pxAlign),s.stroke=oe(s.stroke||null),s.fill=oe(s.fill||null),s._stroke=s._fill=s._paths=s._focus=null;let p=Pu(at(1,s.width),1),m=s.points=Oe({},{size:p,width:at(1,p*.2),stroke:s.stroke,space:p*2,paths:Wu,_stroke:null,_fill:null},s.points);m.show=oe(m.show),m.filter=oe(m.filter),m.fill=oe(m.fill),m.stroke=oe(m.stroke),m.paths=oe(m.paths),m.pxAlign=s.pxAlign}if(Fe){let p=No(s,c);Pe.splice(c,0,p[0]),Nt.splice(c,0,p[1]),ee.values.push(null)}if(et){me.splice(c,0,null);let p=null;Fn?c==0&&(p=Qr(s,c)):c>0&&(p=Qr(s,c)),St.splice(c,0,p),Un.splice(c,0,0),Vn.splice(c,0,0)}Ye("addSeries",c)}function fc(s,c){c=c??w.length,s=l==1?Er(s,c,Os,zs):Er(s,c,{},Hs),w.splice(c,0,s),Zr(w[c],c)}o.addSeries=fc;function pc(s){if(w.splice(s,1),Fe){ee.values.splice(s,1),Nt.splice(s,1);let c=Pe.splice(s,1)[0];Ln(null,c.firstChild),c.remove()}et&&(me.splice(s,1),St.splice(s,1)[0].remove(),Un.splice(s,1),Vn.splice(s,1)),Ye("delSeries",s)}o.delSeries=pc;let _n=[!1,!1,!1,!1];function hc(s,c){if(s._show=s.show,s.show){let p=s.side%2,m=C[s.scale];m==null&&(s.scale=p?w[1].scale:N,m=C[s.scale]);let _=m.time;s.size=oe(s.size),s.space=oe(s.space),s.rotate=oe(s.rotate),un(s.incrs)&&s.incrs.forEach(k=>{!fn.has(k)&&fn.set(k,oi(k))}),s.incrs=oe(s.incrs||(m.distr==2?eu:_?D==1?nu:ru:Cn)),s.splits=oe(s.splits||(_&&m.distr==1?st:m.distr==3?Sr:m.distr==4?Su:wu)),s.stroke=oe(s.stroke),s.grid.stroke=oe(s.grid.stroke),s.ticks.stroke=oe(s.ticks.stroke),s.border.stroke=oe(s.border.stroke);let y=s.values;s.values=un(y)&&!un(y[0])?oe(y):_?un(y)?Rs(le,Is(y,H)):As(y)?iu(le,y):y||xe:y||vu,s.filter=oe(s.filter||(m.distr>=3&&m.log==10?Cu:m.distr==3&&m.log==2?Eu:ti)),s.font=qs(s.font),s.labelFont=qs(s.labelFont),s._size=s.size(o,null,c,0),s._space=s._rotate=s._incrs=s._found=s._splits=s._values=null,s._size>0&&(_n[c]=!0,s._el=Ct(dd,g))}}function fo(s,c,p,m){let[_,y,k,A]=p,P=c%2,I=0;return P==0&&(A||y)&&(I=c==0&&!_||c==2&&!k?He(Ns.size/3):0),P==1&&(_||k)&&(I=c==1&&!y||c==3&&!A?He(Us.size/2):0),I}let Xr=o.padding=(e.padding||[fo,fo,fo,fo]).map(s=>oe(ce(s,fo))),nn=o._padding=Xr.map((s,c)=>s(o,c,_n,0)),Je,We=null,Be=null,Uo=l==1?w[0].idxs:null,Tt=null,po=!1;function ea(s,c){if(t=s??[],o.data=o._data=t,l==2){Je=0;for(let p=1;p<w.length;p++)Je+=t[p][0].length}else{t.length==0&&(o.data=o._data=t=[[]]),Tt=t[0],Je=Tt.length;let p=t;if(j==2){p=t.slice();let m=p[0]=Array(Je);for(let _=0;_<Je;_++)m[_]=_}o._data=t=p}if(zn(!0),Ye("setData"),j==2&&(Nn=!0),c!==!1){let p=T;p.auto(o,po)?Cl():ln(N,p.min,p.max),gn=gn||U.left>=0,wt=!0,Wn()}}o.setData=ea;function Cl(){po=!0;let s,c;l==1&&(Je>0?(We=Uo[0]=0,Be=Uo[1]=Je-1,s=t[0][We],c=t[0][Be],j==2?(s=We,c=Be):s==c&&(j==3?[s,c]=dl(s,s,T.log,!1):j==4?[s,c]=Dr(s,s,T.log,!1):T.time?c=s+He(86400/D):[s,c]=sl(s,c,Ir,!0))):(We=Uo[0]=s=null,Be=Uo[1]=c=null)),ln(N,s,c)}let Vo,Hn,El,Al,Pl,Tl,Dl,Il,Rl,ct;function ta(s,c,p,m,_,y){s??(s=us),p??(p=Lr),m??(m="butt"),_??(_=us),y??(y="round"),s!=Vo&&(f.strokeStyle=Vo=s),_!=Hn&&(f.fillStyle=Hn=_),c!=El&&(f.lineWidth=El=c),y!=Pl&&(f.lineJoin=Pl=y),m!=Tl&&(f.lineCap=Tl=m),p!=Al&&f.setLineDash(Al=p)}function na(s,c,p,m){c!=Hn&&(f.fillStyle=Hn=c),s!=Dl&&(f.font=Dl=s),p!=Il&&(f.textAlign=Il=p),m!=Rl&&(f.textBaseline=Rl=m)}function Ll(s,c,p,m,_=0){if(m.length>0&&s.auto(o,po)&&(c==null||c.min==null)){let y=ce(We,0),k=ce(Be,m.length-1),A=p.min==null?Cd(m,y,k,_,s.distr==3):[p.min,p.max];s.min=Mt(s.min,p.min=A[0]),s.max=at(s.max,p.max=A[1])}}let oa={min:null,max:null};function mc(){for(let m in C){let _=C[m];z[m]==null&&(_.min==null||z[N]!=null&&_.auto(o,po))&&(z[m]=oa)}for(let m in C){let _=C[m];z[m]==null&&_.from!=null&&z[_.from]!=null&&(z[m]=oa)}z[N]!=null&&zn(!0);let s={};for(let m in z){let _=z[m];if(_!=null){let y=s[m]=oo(C[m],Md);if(_.min!=null)Oe(y,_);else if(m!=N||l==2)if(Je==0&&y.from==null){let k=y.range(o,null,null,m);y.min=k[0],y.max=k[1]}else y.min=ge,y.max=-ge}}if(Je>0){w.forEach((m,_)=>{if(l==1){let y=m.scale,k=z[y];if(k==null)return;let A=s[y];if(_==0){let P=A.range(o,A.min,A.max,y);A.min=P[0],A.max=P[1],We=Lt(A.min,t[0]),Be=Lt(A.max,t[0]),Be-We>1&&(t[0][We]<A.min&&We++,t[0][Be]>A.max&&Be--),m.min=Tt[We],m.max=Tt[Be]}else m.show&&m.auto&&Ll(A,k,m,t[_],m.sorted);m.idxs[0]=We,m.idxs[1]=Be}else if(_>0&&m.show&&m.auto){let[y,k]=m.facets,A=y.scale,P=k.scale,[I,L]=t[_],O=s[A],q=s[P];O!=null&&Ll(O,z[A],y,I,y.sorted),q!=null&&Ll(q,z[P],k,L,k.sorted),m.min=k.min,m.max=k.max}});for(let m in s){let _=s[m],y=z[m];if(_.from==null&&(y==null||y.min==null)){let k=_.range(o,_.min==ge?null:_.min,_.max==-ge?null:_.max,m);_.min=k[0],_.max=k[1]}}}for(let m in s){let _=s[m];if(_.from!=null){let y=s[_.from];if(y.min==null)_.min=_.max=null;else{let k=_.range(o,y.min,y.max,m);_.min=k[0],_.max=k[1]}}}let c={},p=!1;for(let m in s){let _=s[m],y=C[m];if(y.min!=_.min||y.max!=_.max){y.min=_.min,y.max=_.max;let k=y.distr;y._min=k==3?Zt(y.min):k==4?hr(y.min,y.asinh):k==100?y.fwd(y.min):y.min,y._max=k==3?Zt(y.max):k==4?hr(y.max,y.asinh):k==100?y.fwd(y.max):y.max,c[m]=p=!0}}if(p){w.forEach((m,_)=>{l==2?_>0&&c.y&&(m._paths=null):c[m.scale]&&(m._paths=null)});for(let m in c)Nn=!0,Ye("setScale",m);et&&U.left>=0&&(gn=wt=!0)}for(let m in z)z[m]=null}function $c(s){let c=wr(We-1,0,Je-1),p=wr(Be+1,0,Je-1);for(;s[c]==null&&c>0;)c--;for(;s[p]==null&&p<Je-1;)p++;return[c,p]}function gc(){if(Je>0){let s=w.some(c=>c._focus)&&ct!=Ft.alpha;s&&(f.globalAlpha=ct=Ft.alpha),w.forEach((c,p)=>{if(p>0&&c.show&&(la(p,!1),la(p,!0),c._paths==null)){let m=ct;ct!=c.alpha&&(f.globalAlpha=ct=c.alpha);let _=l==2?[0,t[p][0].length-1]:$c(t[p]);c._paths=c.paths(o,p,_[0],_[1]),ct!=m&&(f.globalAlpha=ct=m)}}),w.forEach((c,p)=>{if(p>0&&c.show){let m=ct;ct!=c.alpha&&(f.globalAlpha=ct=c.alpha),c._paths!=null&&ra(p,!1);{let _=c._paths!=null?c._paths.gaps:null,y=c.points.show(o,p,We,Be,_),k=c.points.filter(o,p,y,_);(y||k)&&(c.points._paths=c.points.paths(o,p,We,Be,k),ra(p,!0))}ct!=m&&(f.globalAlpha=ct=m),Ye("drawSeries",p)}}),s&&(f.globalAlpha=ct=1)}}function la(s,c){let p=c?w[s].points:w[s];p._stroke=p.stroke(o,s),p._fill=p.fill(o,s)}function ra(s,c){let p=c?w[s].points:w[s],{stroke:m,fill:_,clip:y,flags:k,_stroke:A=p._stroke,_fill:P=p._fill,_width:I=p.width}=p._paths;I=be(I*ue,3);let L=null,O=I%2/2;c&&P==null&&(P=I>0?"#fff":A);let q=p.pxAlign==1&&O>0;if(q&&f.translate(O,O),!c){let de=pt-I/2,se=vt-I/2,te=it+I,G=Pt+I;L=new Path2D,L.rect(de,se,te,G)}c?Ml(A,I,p.dash,p.cap,P,m,_,k,y):bc(s,A,I,p.dash,p.cap,P,m,_,k,L,y),q&&f.translate(-O,-O)}function bc(s,c,p,m,_,y,k,A,P,I,L){let O=!1;P!=0&&K.forEach((q,de)=>{if(q.series[0]==s){let se=w[q.series[1]],te=t[q.series[1]],G=(se._paths||Io).band;un(G)&&(G=q.dir==1?G[0]:G[1]);let V,Se=null;se.show&&G&&Ad(te,We,Be)?(Se=q.fill(o,de)||y,V=se._paths.clip):G=null,Ml(c,p,m,_,Se,k,A,P,I,L,V,G),O=!0}}),O||Ml(c,p,m,_,y,k,A,P,I,L)}let aa=lo|xr;function Ml(s,c,p,m,_,y,k,A,P,I,L,O){ta(s,c,p,m,_),(P||I||O)&&(f.save(),P&&f.clip(P),I&&f.clip(I)),O?(A&aa)==aa?(f.clip(O),L&&f.clip(L),zo(_,k),Ho(s,y,c)):A&xr?(zo(_,k),f.clip(O),Ho(s,y,c)):A&lo&&(f.save(),f.clip(O),L&&f.clip(L),zo(_,k),f.restore(),Ho(s,y,c)):(zo(_,k),Ho(s,y,c)),(P||I||O)&&f.restore()}function Ho(s,c,p){p>0&&(c instanceof Map?c.forEach((m,_)=>{f.strokeStyle=Vo=_,f.stroke(m)}):c!=null&&s&&f.stroke(c))}function zo(s,c){c instanceof Map?c.forEach((p,m)=>{f.fillStyle=Hn=m,f.fill(p)}):c!=null&&s&&f.fill(c)}function _c(s,c,p,m){let _=E[s],y;if(m<=0)y=[0,0];else{let k=_._space=_.space(o,s,c,p,m),A=_._incrs=_.incrs(o,s,c,p,m,k);y=Ku(c,p,A,m,k)}return _._found=y}function Nl(s,c,p,m,_,y,k,A,P,I){let L=k%2/2;x==1&&f.translate(L,L),ta(A,k,P,I,A),f.beginPath();let O,q,de,se,te=_+(m==0||m==3?-y:y);p==0?(q=_,se=te):(O=_,de=te);for(let G=0;G<s.length;G++)c[G]!=null&&(p==0?O=de=s[G]:q=se=s[G],f.moveTo(O,q),f.lineTo(de,se));f.stroke(),x==1&&f.translate(-L,-L)}function yc(s){let c=!0;return E.forEach((p,m)=>{if(!p.show)return;let _=C[p.scale];if(_.min==null){p._show&&(c=!1,p._show=!1,zn(!1));return}else p._show||(c=!1,p._show=!0,zn(!1));let y=p.side,k=y%2,{min:A,max:P}=_,[I,L]=_c(m,A,P,k==0?Q:M);if(L==0)return;let O=_.distr==2,q=p._splits=p.splits(o,m,A,P,I,L,O),de=_.distr==2?q.map(V=>Tt[V]):q,se=_.distr==2?Tt[q[1]]-Tt[q[0]]:I,te=p._values=p.values(o,p.filter(o,de,m,L,se),m,L,se);p._rotate=y==2?p.rotate(o,te,m,L):0;let G=p._size;p._size=Et(p.size(o,te,m,s)),G!=null&&p._size!=G&&(c=!1)}),c}function vc(s){let c=!0;return Xr.forEach((p,m)=>{let _=p(o,m,_n,s);_!=nn[m]&&(c=!1),nn[m]=_}),c}function wc(){for(let s=0;s<E.length;s++){let c=E[s];if(!c.show||!c._show)continue;let p=c.side,m=p%2,_,y,k=c.stroke(o,s),A=p==0||p==3?-1:1,[P,I]=c._found;if(c.label!=null){let ot=c.labelGap*A,$t=He((c._lpos+ot)*ue);na(c.labelFont[0],k,"center",p==2?"top":ds),f.save(),m==1?(_=y=0,f.translate($t,He(vt+Pt/2)),f.rotate((p==3?-rl:rl)/2)):(_=He(pt+it/2),y=$t);let wn=Xs(c.label)?c.label(o,s,P,I):c.label;f.fillText(wn,_,y),f.restore()}if(I==0)continue;let L=C[c.scale],O=m==0?it:Pt,q=m==0?pt:vt,de=c._splits,se=L.distr==2?de.map(ot=>Tt[ot]):de,te=L.distr==2?Tt[de[1]]-Tt[de[0]]:P,G=c.ticks,V=c.border,Se=G.show?G.size:0,De=He(Se*ue),qe=He((c.alignTo==2?c._size-Se-c.gap:c.gap)*ue),$e=c._rotate*-rl/180,Ie=v(c._pos*ue),ht=(De+qe)*A,nt=Ie+ht;y=m==0?nt:0,_=m==1?nt:0;let kt=c.font[0],Dt=c.align==1?Zn:c.align==2?ur:$e>0?Zn:$e<0?ur:m==0?"center":p==3?ur:Zn,Ht=$e||m==1?"middle":p==2?"top":ds;na(kt,k,Dt,Ht);let mt=c.font[1]*c.lineGap,xt=de.map(ot=>v(i(ot,L,O,q))),It=c._values;for(let ot=0;ot<It.length;ot++){let $t=It[ot];if($t!=null){m==0?_=xt[ot]:y=xt[ot],$t=""+$t;let wn=$t.indexOf(`
`)==-1?[$t]:$t.split(/\n/gm);for(let lt=0;lt<wn.length;lt++){let xa=wn[lt];$e?(f.save(),f.translate(_,y+lt*mt),f.rotate($e),f.fillText(xa,0,0),f.restore()):f.fillText(xa,_,y+lt*mt)}}}G.show&&Nl(xt,G.filter(o,se,s,I,te),m,p,Ie,De,be(G.width*ue,3),G.stroke(o,s),G.dash,G.cap);let zt=c.grid;zt.show&&Nl(xt,zt.filter(o,se,s,I,te),m,m==0?2:1,m==0?vt:pt,m==0?Pt:it,be(zt.width*ue,3),zt.stroke(o,s),zt.dash,zt.cap),V.show&&Nl([Ie],[1],m==0?1:0,m==0?1:2,m==1?vt:pt,m==1?Pt:it,be(V.width*ue,3),V.stroke(o,s),V.dash,V.cap)}Ye("drawAxes")}function zn(s){w.forEach((c,p)=>{p>0&&(c._paths=null,s&&(l==1?(c.min=null,c.max=null):c.facets.forEach(m=>{m.min=null,m.max=null})))})}let Wo=!1,Ol=!1,ho=[];function Sc(){Ol=!1;for(let s=0;s<ho.length;s++)Ye(...ho[s]);ho.length=0}function Wn(){Wo||(zd(sa),Wo=!0)}function kc(s,c=!1){Wo=!0,Ol=c,s(o),sa(),c&&ho.length>0&&queueMicrotask(Sc)}o.batch=kc;function sa(){if(kl&&(mc(),kl=!1),Nn&&(ic(),Nn=!1),Oo){if(ke(b,Zn,_e),ke(b,"top",Ue),ke(b,Ao,Q),ke(b,Po,M),ke(S,Zn,_e),ke(S,"top",Ue),ke(S,Ao,Q),ke(S,Po,M),ke(g,Ao,Kt),ke(g,Po,hn),$.width=He(Kt*ue),$.height=He(hn*ue),E.forEach(({_el:s,_show:c,_size:p,_pos:m,side:_})=>{if(s!=null)if(c){let y=_===3||_===0?p:0,k=_%2==1;ke(s,k?"left":"top",m-y),ke(s,k?"width":"height",p),ke(s,k?"top":"left",k?Ue:_e),ke(s,k?"height":"width",k?M:Q),yr(s,En)}else gt(s,En)}),Vo=Hn=El=Pl=Tl=Dl=Il=Rl=Al=null,ct=1,go(!0),_e!=Mn||Ue!=mn||Q!=Ot||M!=$n){zn(!1);let s=Q/Ot,c=M/$n;if(et&&!gn&&U.left>=0){U.left*=s,U.top*=c,Bn&&Yt(Bn,He(U.left),0,Q,M),jn&&Yt(jn,0,He(U.top),Q,M);for(let p=0;p<St.length;p++){let m=St[p];m!=null&&(Un[p]*=s,Vn[p]*=c,Yt(m,Et(Un[p]),Et(Vn[p]),Q,M))}}if(we.show&&!Fo&&we.left>=0&&we.width>0){we.left*=s,we.width*=s,we.top*=c,we.height*=c;for(let p in Wl)ke(qn,p,we[p])}Mn=_e,mn=Ue,Ot=Q,$n=M}Ye("setSize"),Oo=!1}Kt>0&&hn>0&&(f.clearRect(0,0,$.width,$.height),Ye("drawClear"),B.forEach(s=>s()),Ye("draw")),we.show&&Fo&&(Bo(we),Fo=!1),et&&gn&&(vn(null,!0,!1),gn=!1),ee.show&&ee.live&&wt&&(Hl(),wt=!1),d||(d=!0,o.status=1,Ye("ready")),po=!1,Wo=!1}o.redraw=(s,c)=>{Nn=c||!1,s!==!1?ln(N,T.min,T.max):Wn()};function Fl(s,c){let p=C[s];if(p.from==null){if(Je==0){let m=p.range(o,c.min,c.max,s);c.min=m[0],c.max=m[1]}if(c.min>c.max){let m=c.min;c.min=c.max,c.max=m}if(Je>1&&c.min!=null&&c.max!=null&&c.max-c.min<1e-16)return;s==N&&p.distr==2&&Je>0&&(c.min=Lt(c.min,t[0]),c.max=Lt(c.max,t[0]),c.min==c.max&&c.max++),z[s]=c,kl=!0,Wn()}}o.setScale=Fl;let Ul,Vl,Bn,jn,ia,ca,Gn,Yn,da,ua,ve,Ee,on=!1,Qe=U.drag,je=Qe.x,Ge=Qe.y;et&&(U.x&&(Ul=Ct(fd,S)),U.y&&(Vl=Ct(pd,S)),T.ori==0?(Bn=Ul,jn=Vl):(Bn=Vl,jn=Ul),ve=U.left,Ee=U.top);let we=o.select=Oe({show:!0,over:!0,left:0,width:0,top:0,height:0},e.select),qn=we.show?Ct(ud,we.over?S:b):null;function Bo(s,c){if(we.show){for(let p in s)we[p]=s[p],p in Wl&&ke(qn,p,s[p]);c!==!1&&Ye("setSelect")}}o.setSelect=Bo;function xc(s){if(w[s].show)Fe&&yr(Pe[s],En);else if(Fe&&gt(Pe[s],En),et){let p=Fn?St[0]:St[s];p!=null&&Yt(p,-10,-10,Q,M)}}function ln(s,c,p){Fl(s,{min:c,max:p})}function Ut(s,c,p,m){c.focus!=null&&Tc(s),c.show!=null&&w.forEach((_,y)=>{y>0&&(s==y||s==null)&&(_.show=c.show,xc(y),l==2?(ln(_.facets[0].scale,null,null),ln(_.facets[1].scale,null,null)):ln(_.scale,null,null),Wn())}),p!==!1&&Ye("setSeries",s,c),m&&bo("setSeries",o,s,c)}o.setSeries=Ut;function Cc(s,c){Oe(K[s],c)}function Ec(s,c){s.fill=oe(s.fill||null),s.dir=ce(s.dir,-1),c=c??K.length,K.splice(c,0,s)}function Ac(s){s==null?K.length=0:K.splice(s,1)}o.addBand=Ec,o.setBand=Cc,o.delBand=Ac;function Pc(s,c){w[s].alpha=c,et&&St[s]!=null&&(St[s].style.opacity=c),Fe&&Pe[s]&&(Pe[s].style.opacity=c)}let Jt,rn,yn,Kn={focus:!0};function Tc(s){if(s!=yn){let c=s==null,p=Ft.alpha!=1;w.forEach((m,_)=>{if(l==1||_>0){let y=c||_==0||_==s;m._focus=c?null:y,p&&Pc(_,y?1:Ft.alpha)}}),yn=s,p&&Wn()}}Fe&&On&&tt(hs,fe,s=>{U._lock||(bn(s),yn!=null&&Ut(null,Kn,!0,Me.setSeries))});function Vt(s,c,p){let m=C[c];p&&(s=s/ue-(m.ori==1?Ue:_e));let _=Q;m.ori==1&&(_=M,s=_-s),m.dir==-1&&(s=_-s);let y=m._min,k=m._max,A=s/_,P=y+(k-y)*A,I=m.distr;return I==3?to(10,P):I==4?Td(P,m.asinh):I==100?m.bwd(P):P}function Dc(s,c){let p=Vt(s,N,c);return Lt(p,t[0],We,Be)}o.valToIdx=s=>Lt(s,t[0]),o.posToIdx=Dc,o.posToVal=Vt,o.valToPos=(s,c,p)=>C[c].ori==0?r(s,C[c],p?it:Q,p?pt:0):a(s,C[c],p?Pt:M,p?vt:0),o.setCursor=(s,c,p)=>{ve=s.left,Ee=s.top,vn(null,c,p)};function fa(s,c){ke(qn,Zn,we.left=s),ke(qn,Ao,we.width=c)}function pa(s,c){ke(qn,"top",we.top=s),ke(qn,Po,we.height=c)}let mo=T.ori==0?fa:pa,$o=T.ori==1?fa:pa;function Ic(){if(Fe&&ee.live)for(let s=l==2?1:0;s<w.length;s++){if(s==0&&yt)continue;let c=ee.values[s],p=0;for(let m in c)Nt[s][p++].firstChild.nodeValue=c[m]}}function Hl(s,c){if(s!=null&&(s.idxs?s.idxs.forEach((p,m)=>{me[m]=p}):Ld(s.idx)||me.fill(s.idx),ee.idx=me[0]),Fe&&ee.live){for(let p=0;p<w.length;p++)(p>0||l==1&&!yt)&&Rc(p,me[p]);Ic()}wt=!1,c!==!1&&Ye("setLegend")}o.setLegend=Hl;function Rc(s,c){let p=w[s],m=s==0&&j==2?Tt:t[s],_;yt?_=p.values(o,s,c)??tn:(_=p.value(o,c==null?null:m[c],s,c),_=_==null?tn:{_}),ee.values[s]=_}function vn(s,c,p){da=ve,ua=Ee,[ve,Ee]=U.move(o,ve,Ee),U.left=ve,U.top=Ee,et&&(Bn&&Yt(Bn,He(ve),0,Q,M),jn&&Yt(jn,0,He(Ee),Q,M));let m,_=We>Be;Jt=ge,rn=null;let y=T.ori==0?Q:M,k=T.ori==1?Q:M;if(ve<0||Je==0||_){m=U.idx=null;for(let A=0;A<w.length;A++){let P=St[A];P!=null&&Yt(P,-10,-10,Q,M)}On&&Ut(null,Kn,!0,s==null&&Me.setSeries),ee.live&&(me.fill(m),wt=!0)}else{let A,P,I;l==1&&(A=T.ori==0?ve:Ee,P=Vt(A,N),m=U.idx=Lt(P,t[0],We,Be),I=R(t[0][m],T,y,0));let L=-10,O=-10,q=0,de=0,se=!0,te="",G="";for(let V=l==2?1:0;V<w.length;V++){let Se=w[V],De=me[V],qe=De==null?null:l==1?t[V][De]:t[V][1][De],$e=U.dataIdx(o,V,m,P),Ie=$e==null?null:l==1?t[V][$e]:t[V][1][$e];if(wt=wt||Ie!=qe||$e!=De,me[V]=$e,V>0&&Se.show){let ht=$e==null?-10:$e==m?I:R(l==1?t[0][$e]:t[V][0][$e],T,y,0),nt=Ie==null?-10:Y(Ie,l==1?C[Se.scale]:C[Se.facets[1].scale],k,0);if(On&&Ie!=null){let kt=T.ori==1?ve:Ee,Dt=ze(Ft.dist(o,V,$e,nt,kt));if(Dt<Jt){let Ht=Ft.bias;if(Ht!=0){let mt=Vt(kt,Se.scale),xt=Ie>=0?1:-1,It=mt>=0?1:-1;It==xt&&(It==1?Ht==1?Ie>=mt:Ie<=mt:Ht==1?Ie<=mt:Ie>=mt)&&(Jt=Dt,rn=V)}else Jt=Dt,rn=V}}if(wt||Fn){let kt,Dt;T.ori==0?(kt=ht,Dt=nt):(kt=nt,Dt=ht);let Ht,mt,xt,It,zt,ot,$t=!0,wn=Ze.bbox;if(wn!=null){$t=!1;let lt=wn(o,V);xt=lt.left,It=lt.top,Ht=lt.width,mt=lt.height}else xt=kt,It=Dt,Ht=mt=Ze.size(o,V);if(ot=Ze.fill(o,V),zt=Ze.stroke(o,V),Fn)V==rn&&Jt<=Ft.prox&&(L=xt,O=It,q=Ht,de=mt,se=$t,te=ot,G=zt);else{let lt=St[V];lt!=null&&(Un[V]=xt,Vn[V]=It,vs(lt,Ht,mt,$t),_s(lt,ot,zt),Yt(lt,Et(xt),Et(It),Q,M))}}}}if(Fn){let V=Ft.prox,Se=yn==null?Jt<=V:Jt>V||rn!=yn;if(wt||Se){let De=St[0];De!=null&&(Un[0]=L,Vn[0]=O,vs(De,q,de,se),_s(De,te,G),Yt(De,Et(L),Et(O),Q,M))}}}if(we.show&&on)if(s!=null){let[A,P]=Me.scales,[I,L]=Me.match,[O,q]=s.cursor.sync.scales,de=s.cursor.drag;if(je=de._x,Ge=de._y,je||Ge){let{left:se,top:te,width:G,height:V}=s.select,Se=s.scales[O].ori,De=s.posToVal,qe,$e,Ie,ht,nt,kt=A!=null&&I(A,O),Dt=P!=null&&L(P,q);kt&&je?(Se==0?(qe=se,$e=G):(qe=te,$e=V),Ie=C[A],ht=R(De(qe,O),Ie,y,0),nt=R(De(qe+$e,O),Ie,y,0),mo(Mt(ht,nt),ze(nt-ht))):mo(0,y),Dt&&Ge?(Se==1?(qe=se,$e=G):(qe=te,$e=V),Ie=C[P],ht=Y(De(qe,q),Ie,k,0),nt=Y(De(qe+$e,q),Ie,k,0),$o(Mt(ht,nt),ze(nt-ht))):$o(0,k)}else Bl()}else{let A=ze(da-ia),P=ze(ua-ca);if(T.ori==1){let q=A;A=P,P=q}je=Qe.x&&A>=Qe.dist,Ge=Qe.y&&P>=Qe.dist;let I=Qe.uni;I!=null?je&&Ge&&(je=A>=I,Ge=P>=I,!je&&!Ge&&(P>A?Ge=!0:je=!0)):Qe.x&&Qe.y&&(je||Ge)&&(je=Ge=!0);let L,O;je&&(T.ori==0?(L=Gn,O=ve):(L=Yn,O=Ee),mo(Mt(L,O),ze(O-L)),Ge||$o(0,k)),Ge&&(T.ori==1?(L=Gn,O=ve):(L=Yn,O=Ee),$o(Mt(L,O),ze(O-L)),je||mo(0,y)),!je&&!Ge&&(mo(0,0),$o(0,0))}if(Qe._x=je,Qe._y=Ge,s==null){if(p){if(ka!=null){let[A,P]=Me.scales;Me.values[0]=A!=null?Vt(T.ori==0?ve:Ee,A):null,Me.values[1]=P!=null?Vt(T.ori==1?ve:Ee,P):null}bo(fr,o,ve,Ee,Q,M,m)}if(On){let A=p&&Me.setSeries,P=Ft.prox;yn==null?Jt<=P&&Ut(rn,Kn,!0,A):Jt>P?Ut(null,Kn,!0,A):rn!=yn&&Ut(rn,Kn,!0,A)}}wt&&(ee.idx=m,Hl()),c!==!1&&Ye("setCursor")}let an=null;Object.defineProperty(o,"rect",{get(){return an==null&&go(!1),an}});function go(s=!1){s?an=null:(an=S.getBoundingClientRect(),Ye("syncRect",an))}function ha(s,c,p,m,_,y,k){U._lock||on&&s!=null&&s.movementX==0&&s.movementY==0||(zl(s,c,p,m,_,y,k,!1,s!=null),s!=null?vn(null,!0,!0):vn(c,!0,!1))}function zl(s,c,p,m,_,y,k,A,P){if(an==null&&go(!1),bn(s),s!=null)p=s.clientX-an.left,m=s.clientY-an.top;else{if(p<0||m<0){ve=-10,Ee=-10;return}let[I,L]=Me.scales,O=c.cursor.sync,[q,de]=O.values,[se,te]=O.scales,[G,V]=Me.match,Se=c.axes[0].side%2==1,De=T.ori==0?Q:M,qe=T.ori==1?Q:M,$e=Se?y:_,Ie=Se?_:y,ht=Se?m:p,nt=Se?p:m;if(se!=null?p=G(I,se)?i(q,C[I],De,0):-10:p=De*(ht/$e),te!=null?m=V(L,te)?i(de,C[L],qe,0):-10:m=qe*(nt/Ie),T.ori==1){let kt=p;p=m,m=kt}}P&&(c==null||c.cursor.event.type==fr)&&((p<=1||p>=Q-1)&&(p=xn(p,Q)),(m<=1||m>=M-1)&&(m=xn(m,M))),A?(ia=p,ca=m,[Gn,Yn]=U.move(o,p,m)):(ve=p,Ee=m)}let Wl={width:0,height:0,left:0,top:0};function Bl(){Bo(Wl,!1)}let ma,$a,ga,ba;function _a(s,c,p,m,_,y,k){on=!0,je=Ge=Qe._x=Qe._y=!1,zl(s,c,p,m,_,y,k,!0,!1),s!=null&&(tt(pr,br,ya,!1),bo(fs,o,Gn,Yn,Q,M,null));let{left:A,top:P,width:I,height:L}=we;ma=A,$a=P,ga=I,ba=L}function ya(s,c,p,m,_,y,k){on=Qe._x=Qe._y=!1,zl(s,c,p,m,_,y,k,!1,!0);let{left:A,top:P,width:I,height:L}=we,O=I>0||L>0,q=ma!=A||$a!=P||ga!=I||ba!=L;if(O&&q&&Bo(we),Qe.setScale&&O&&q){let de=A,se=I,te=P,G=L;if(T.ori==1&&(de=P,se=L,te=A,G=I),je&&ln(N,Vt(de,N),Vt(de+se,N)),Ge)for(let V in C){let Se=C[V];V!=N&&Se.from==null&&Se.min!=ge&&ln(V,Vt(te+G,V),Vt(te,V))}Bl()}else U.lock&&(U._lock=!U._lock,vn(c,!0,s!=null));s!=null&&(Ln(pr,br),bo(pr,o,ve,Ee,Q,M,null))}function Lc(s,c,p,m,_,y,k){if(U._lock)return;bn(s);let A=on;if(on){let P=!0,I=!0,L=10,O,q;T.ori==0?(O=je,q=Ge):(O=Ge,q=je),O&&q&&(P=ve<=L||ve>=Q-L,I=Ee<=L||Ee>=M-L),O&&P&&(ve=ve<Gn?0:Q),q&&I&&(Ee=Ee<Yn?0:M),vn(null,!0,!0),on=!1}ve=-10,Ee=-10,me.fill(null),vn(null,!0,!0),A&&(on=A)}function va(s,c,p,m,_,y,k){U._lock||(bn(s),Cl(),Bl(),s!=null&&bo(ms,o,ve,Ee,Q,M,null))}function wa(){E.forEach(Ju),xl(o.width,o.height,!0)}An(al,eo,wa);let Jn={};Jn.mousedown=_a,Jn.mousemove=ha,Jn.mouseup=ya,Jn.dblclick=va,Jn.setSeries=(s,c,p,m)=>{let _=Me.match[2];p=_(o,c,p),p!=-1&&Ut(p,m,!0,!1)},et&&(tt(fs,S,_a),tt(fr,S,ha),tt(ps,S,s=>{bn(s),go(!1)}),tt(hs,S,Lc),tt(ms,S,va),Cr.add(o),o.syncRect=go);let jo=o.hooks=e.hooks||{};function Ye(s,c,p){Ol?ho.push([s,c,p]):s in jo&&jo[s].forEach(m=>{m.call(null,o,c,p)})}(e.plugins||[]).forEach(s=>{for(let c in s.hooks)jo[c]=(jo[c]||[]).concat(s.hooks[c])});let Sa=(s,c,p)=>p,Me=Oe({key:null,setSeries:!1,filters:{pub:Cs,sub:Cs},scales:[N,w[1]?w[1].scale:null],match:[Es,Es,Sa],values:[null,null]},U.sync);Me.match.length==2&&Me.match.push(Sa),U.sync=Me;let ka=Me.key,jl=Si(ka);function bo(s,c,p,m,_,y,k){Me.filters.pub(s,c,p,m,_,y,k)&&jl.pub(s,c,p,m,_,y,k)}jl.sub(o);function Mc(s,c,p,m,_,y,k){Me.filters.sub(s,c,p,m,_,y,k)&&Jn[s](null,c,p,m,_,y,k)}o.pub=Mc;function Nc(){jl.unsub(o),Cr.delete(o),pn.clear(),vr(al,eo,wa),h.remove(),fe?.remove(),Ye("destroy")}o.destroy=Nc;function Gl(){Ye("init",e,t),ea(t||e.data,!1),z[N]?Fl(N,z[N]):Cl(),Fo=we.show&&(we.width>0||we.height>0),gn=wt=!0,xl(e.width,e.height)}return w.forEach(Zr),E.forEach(hc),n?n instanceof HTMLElement?(n.appendChild(h),Gl()):n(o,Gl):Gl(),o}Ke.assign=Oe;Ke.fmtNum=Rr;Ke.rangeNum=sl;Ke.rangeLog=dl;Ke.rangeAsinh=Dr;Ke.orient=Tn;Ke.pxRatio=ue;Ke.join=Hd;Ke.fmtDate=Mr,Ke.tzDate=Zd;Ke.sync=Si;{Ke.addGap=Lu,Ke.clipGaps=pl;let e=Ke.paths={points:Pi};e.linear=Di,e.stepped=Ou,e.bars=Fu,e.spline=Vu}var io=["#1f6feb","#d97706","#b91c1c","#15803d"];function Mi(e,t,n){let o=Bt(null);return Wt(()=>{let l=o.current;if(!l)return;let r=()=>Math.max(280,l.clientWidth),a=new Ke({...e(),width:r(),height:240},t,l),i=new ResizeObserver(()=>a.setSize({width:r(),height:240}));return i.observe(l),()=>{i.disconnect(),a.destroy()}},n),o}function Ni({title:e,labels:t,series:n}){let o=t.map((i,d)=>d),l=[o,...n.map(i=>i.values)],r=n.length,a=Mi(()=>({title:e,scales:{x:{time:!1,range:[-.5,t.length-.5]},y:{range:(i,d,h)=>[0,Math.max(1,h*1.1)]}},axes:[{splits:()=>o,values:(i,d)=>d.map(h=>t[h]??""),grid:{show:!1}},{}],series:[{},...n.map((i,d)=>({label:i.label,stroke:io[d%io.length],fill:`${io[d%io.length]}cc`,paths:Ke.paths.bars({size:[.8/r,60],align:r===2?d===0?-1:1:0}),points:{show:!1}}))]}),l,[JSON.stringify(l),e]);return u`<figure class="chart">
    <div ref=${a} role="img" aria-label=${e}></div>
    <figcaption>
      <table>
        <caption class="visually-hidden">${e}</caption>
        <thead><tr><th scope="col">provider</th>${n.map(i=>u`<th scope="col">${i.label}</th>`)}</tr></thead>
        <tbody>${t.map((i,d)=>u`<tr><th scope="row">${i}</th>${n.map(h=>u`<td>${h.values[d]}</td>`)}</tr>`)}</tbody>
      </table>
    </figcaption>
  </figure>`}function Lo({title:e,points:t,series:n,unit:o="",max:l,span:r}){let a=t.map(f=>Date.parse(f.at)/1e3),i=(f,g)=>f[g.key]===void 0?0:f[g.key],d=[a,...n.map(f=>t.map(g=>i(g,f)))],h=f=>f===null?"—":`${f}${o}`,$=Mi(()=>({title:e,scales:{...r?{x:{time:!0,range:r.map(f=>Date.parse(f)/1e3)}}:{},y:{range:(f,g,b)=>[0,l??Math.max(1,b*1.1)]}},...o?{axes:[{},{values:(f,g)=>g.map(b=>`${b}${o}`)}]}:{},series:[{},...n.map((f,g)=>({label:f.label,stroke:io[g%io.length],width:2,...d[g+1].includes(null)?{points:{show:!0,size:6}}:{}}))]}),d,[JSON.stringify(d),e,o,l,JSON.stringify(r)]);return u`<figure class="chart">
    <div ref=${$} role="img" aria-label=${e}></div>
    <figcaption>
      <details>
        <summary>The numbers</summary>
        <table>
          <caption class="visually-hidden">${e}</caption>
          <thead><tr><th scope="col">from</th>${n.map(f=>u`<th scope="col">${f.label}</th>`)}</tr></thead>
          <tbody>${t.map(f=>u`<tr><th scope="row">${new Date(f.at).toLocaleString()}</th>${n.map(g=>u`<td>${h(i(f,g))}</td>`)}</tr>`)}</tbody>
        </table>
      </details>
    </figcaption>
  </figure>`}function Oi({me:e}){let t=re(async()=>{let[n,...o]=await Promise.all([Gt("/stores",{},l=>l.code),...Ae.map(l=>X(`/components/${l}`))]);return{stores:n,versions:Object.fromEntries(Ae.map((l,r)=>[l,o[r]]))}},[]);return u`<h1>Replay</h1>
    <p>Re-runs a store's recorded charges with the versions you choose and shows what would change. Nothing is stored or sent.</p>
    ${Te(e,"tester")?u`<${ie} state=${t} what="stores and versions">${n=>u`<${Qu} ...${n} />`}<//>`:u`<p role="note">Your role (${e.role}) may not run replays: a tester may.</p>`}`}function Qu({stores:e,versions:t}){let[n,o]=F(e.find(v=>v.mode==="SHADOW")?.code??e[0]?.code??""),[l,r]=F({policy:"",provider:"",economics:""}),[a,i]=F(""),[d,h]=F(""),[$,f]=F(""),[g,b]=F(null),S=Re();async function x(v){v.preventDefault();let D=Object.fromEntries(Object.entries(l).filter(([,E])=>E)),w={store:n,components:D};a&&(w.since=new Date(a).toISOString()),d&&(w.until=new Date(d).toISOString()),$&&(w.limit=Number($)),b(null),await S.run(()=>ts(w,b))}return u`<form class="stack" onSubmit=${x} aria-label="Replay settings">
      <label>Store
        <select value=${n} onChange=${v=>o(v.target.value)}>
          ${e.map(v=>u`<option value=${v.code}>${v.code} (${v.mode})</option>`)}
        </select>
      </label>
      <fieldset>
        <legend>Versions to try</legend>
        ${Ae.map(v=>u`<label>${v}
          <select value=${l[v]} onChange=${D=>r({...l,[v]:D.target.value})}>
            <option value="">as recorded</option>
            <option value="bundled">bundled</option>
            ${t[v].map(D=>u`<option value=${D.version}>${D.version.slice(0,12)} ${D.label?`${D.label} `:""}(${D.source})</option>`)}
          </select>
        </label>`)}
      </fieldset>
      <div class="row">
        <label>Since <input type="datetime-local" value=${a} onInput=${v=>i(v.target.value)} /></label>
        <label>Until <input type="datetime-local" value=${d} onInput=${v=>h(v.target.value)} /></label>
        <label>At most this many charges <input type="number" min="1" max="100000" value=${$} onInput=${v=>f(v.target.value)} placeholder="10000" /></label>
      </div>
      <button type="submit" class="primary" disabled=${S.busy||!n}>Run the replay</button>
    </form>
    <${he} error=${S.error} />
    ${S.busy?u`<p role="status">${g?u`Replaying ${g.replayed} of ${g.total} charges <progress value=${g.replayed} max=${Math.max(g.total,1)}></progress>`:"Replaying…"}</p>`:null}
    ${S.result?u`<${Zu} report=${S.result} />`:null}`}function Zu({report:e}){return u`<section aria-labelledby="replay-report" class="report">
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
    <${Wr} before=${e.providersBefore} after=${e.providersAfter} empty="No charges in this window." />
    <${Mo} title="Changes by kind" counts=${e.changesByKind} />
    <${Mo} title="Candidate errors by kind" counts=${e.errorsByKind} />
    <h3>Changed charges</h3>
    ${e.firstChanged.length===0?u`<p class="muted">No charge changed.</p>`:u`<div class="scroll"><table>
          <caption>The first ${e.firstChanged.length} changed charges, oldest first</caption>
          <thead><tr><th scope="col">Payment</th><th scope="col">Created</th><th scope="col">What changed</th><th scope="col">Before</th><th scope="col">After</th></tr></thead>
          <tbody>${e.firstChanged.map(t=>u`<tr>
            <th scope="row"><a href=${`#/payments/${t.paymentIntentId}`}><code title=${t.paymentIntentId}>…${t.paymentIntentId.slice(-12)}</code></a></th>
            <td>${ne(t.createdAt)}</td>
            <td>${t.kinds.join(", ")}</td>
            <td>${Dn(t.before)}</td><td>${Dn(t.after)}</td>
          </tr>`)}</tbody>
        </table></div>`}
    <${ut} value=${e} summary="The report as JSON" />
  </section>`}function zr({fee:e,net:t}){return u`<dt>Fee delta</dt><dd>${dr(e)}</dd>
    <dt>Net delta</dt><dd>${dr(t)}</dd>`}function Wr({before:e,after:t,empty:n,title:o="Charges per provider, before and after",names:l=["before","after"]}){let r=[...new Set([...Object.keys(e??{}),...Object.keys(t??{})])].sort();return r.length?u`<${Ni} title=${o}
    labels=${r}
    series=${[{label:l[0],values:r.map(a=>e?.[a]??0)},{label:l[1],values:r.map(a=>t?.[a]??0)}]} />`:u`<p class="muted">${n}</p>`}function Mo({title:e,counts:t}){let n=Object.entries(t??{}).filter(([,o])=>o>0);return n.length?u`<h3>${e}</h3><ul>${n.map(([o,l])=>u`<li><code>${o}</code>: ${l}</li>`)}</ul>`:null}function Dn(e){return e?e.status==="resolved"?u`${e.gatewayAlias} (${e.releaseClass}) · fee ${rt(e.feeCentavos)}`:u`${e.status} at ${e.step}: <code>${e.code}</code>`:"—"}function Fi({store:e,step:t}){let n=re(()=>Gt("/stores",{},o=>o.code),[]);return u`<h1>Shadow comparison</h1>
    <p>A shadow candidate runs beside the active version on every new charge, off the request path; here is how often it decides differently.</p>
    <${ie} state=${n} what="the stores">${o=>u`<${Xu} key=${`${e}/${t}`} stores=${o} initialStore=${e} initialStep=${t} />`}<//>`}function Xu({stores:e,initialStore:t,initialStep:n}){let o=e.find(d=>d.code===t)??e.find(d=>d.mode==="SHADOW")??e[0],[l,r]=F(o?.code??""),[a,i]=F(Ae.includes(n)?n:"provider");return u`<form class="row" aria-label="Which comparison" onSubmit=${d=>d.preventDefault()}>
      <label>Store
        <select value=${l} onChange=${d=>r(d.target.value)}>
          ${e.map(d=>u`<option value=${d.code}>${d.code}</option>`)}
        </select>
      </label>
      <label>Step
        <select value=${a} onChange=${d=>i(d.target.value)}>
          ${Ae.map(d=>u`<option value=${d}>${d}</option>`)}
        </select>
      </label>
    </form>
    ${l?u`<${ef} key=${`${l}/${a}`} store=${l} step=${a} />`:null}`}function ef({store:e,step:t}){let n=re(()=>X(`/stores/${encodeURIComponent(e)}/components/${t}/shadow`),[e,t]);return u`<${ie} state=${n} what="the comparison">${o=>u`
    <section aria-labelledby="shadow-title" class="report">
      <h2 id="shadow-title">${o.store} · ${o.step}</h2>
      <div class="row"><button type="button" onClick=${n.reload}>Refresh</button></div>
      ${n.error?u`<${he} error=${n.error} />`:null}
      <dl class="facts">
        <dt>Active</dt><dd><${Le} value=${o.active} /></dd>
        <dt>Candidate</dt><dd>${o.candidate?u`<${Le} value=${o.candidate} />`:u`none attached: set one on the <a href=${`#/stores/${encodeURIComponent(o.store)}`}>store</a>`}</dd>
        <dt>Since</dt><dd>${ne(o.since)}</dd>
        <dt>Compared</dt><dd>${o.charges} charges</dd>
        <dt>Changed</dt><dd>${o.changed} (${Qn(tf(o))} of the charges)</dd>
        <dt>Unchanged</dt><dd>${o.unchanged}</dd>
        <dt>Candidate errors</dt><dd>${o.errors}</dd>
        <${zr} fee=${o.feeDeltaCentavos} net=${o.netDeltaCentavos} />
      </dl>
      <p class="muted">The deltas are the candidate's minus the active version's, summed over the compared charges both resolved.</p>
      <${Wr} before=${o.providersBefore} after=${o.providersAfter}
        title="Charges per provider, active and candidate" names=${["active","candidate"]}
        empty="No compared charge to chart per provider yet." />
      ${Array.isArray(o.series)&&o.series.length?u`<${Lo} title="Compared charges over time" points=${o.series} span=${nf(o)}
            series=${[{key:"charges",label:"charges"},{key:"changed",label:"changed"},{key:"errors",label:"errors"}]} />`:u`<p class="muted">No comparisons over time yet.</p>`}
      <${Mo} title="Changes by kind" counts=${o.changesByKind} />
      <${Mo} title="Candidate errors by kind" counts=${o.errorsByKind} />
      <h3>Latest differences</h3>
      ${o.recent.length===0?u`<p class="muted">No difference recorded.</p>`:u`<div class="scroll"><table>
            <thead><tr><th scope="col">Payment</th><th scope="col">When</th><th scope="col">What changed</th><th scope="col">Active</th><th scope="col">Candidate</th></tr></thead>
            <tbody>${o.recent.map(l=>u`<tr>
              <th scope="row"><a href=${`#/payments/${l.paymentIntentId}`}><code title=${l.paymentIntentId}>…${l.paymentIntentId.slice(-12)}</code></a></th>
              <td>${ne(l.at)}</td><td>${l.kinds.join(", ")}</td><td>${Dn(l.before)}</td><td>${Dn(l.after)}</td>
            </tr>`)}</tbody>
          </table></div>`}
    </section>`}<//>`}function tf(e){return typeof e.changedShare=="number"?e.changedShare:e.charges?e.changed/e.charges:0}function nf(e){if(!e.bucketSeconds)return;let t=e.series[0].at,n=Date.parse(e.series[e.series.length-1].at)+e.bucketSeconds*1e3;return[t,new Date(n).toISOString()]}function Ui(){let e=re(async()=>{let[t,n]=await Promise.all([X("/providers"),X("/gateways")]);return{providers:t,gateways:n}},[]);return u`<h1>Providers</h1>
    <${ie} state=${e} what="the providers">${({providers:t,gateways:n})=>u`
      ${t.length===0?u`<p class="muted">No provider is configured.</p>`:null}
      <div class="cards">${t.map(o=>u`<article class="card" aria-labelledby=${`provider-${o.code}`}>
        <h2 id=${`provider-${o.code}`}>${o.name} <code>${o.code}</code></h2>
        <dl class="facts">
          <dt>Status</dt><dd><span class=${`badge ${o.active?"ok":"off"}`}>${o.active?"active":"inactive"}</span></dd>
          <dt>Health</dt><dd>${gl(o.health)}</dd>
          <dt>API</dt><dd><code>${o.apiBaseUrl}</code></dd>
          <dt>Client id</dt><dd><code>${o.clientId}</code></dd>
          <dt>Client certificate</dt><dd>${o.tls?.clientCertificate?`${o.tls.clientCertificate.subject}, until ${ne(o.tls.clientCertificate.notAfter)}`:"none"}</dd>
          <dt>Private CAs</dt><dd>${o.tls?.caCertificates?.length??0}</dd>
        </dl>
      </article>`)}</div>
      <h2>Gateways</h2>
      <div class="scroll"><table>
        <thead><tr><th scope="col">Gateway</th><th scope="col">Provider</th><th scope="col">Release class</th><th scope="col">Fee terms</th><th scope="col">Status</th><th scope="col">Health</th></tr></thead>
        <tbody>${n.map(o=>u`<tr>
          <th scope="row"><code>${o.gatewayAlias}</code></th><td>${o.providerCode}</td><td>${o.releaseClass}</td>
          <td>${of(o.feeTerms)}</td>
          <td><span class=${`badge ${o.active?"ok":"off"}`}>${o.active?"active":"inactive"}</span></td>
          <td>${gl(o.health)}</td>
        </tr>`)}</tbody>
      </table></div>`}<//>`}function of(e){if(!e)return"—";let t=e.maxFeeCentavos===null||e.maxFeeCentavos===void 0?"no cap":`cap ${rt(e.maxFeeCentavos)}`;return`${(e.mdrBps/100).toFixed(2)} % + ${rt(e.fixedCentavos)}, min ${rt(e.minFeeCentavos)}, ${t}`}function gl(e){if(!e)return u`<span class="muted">not reported</span>`;let t=e.successRateBps!==void 0?`${(e.successRateBps/100).toFixed(1)} % ok`:null,n=e.latencyP50Ms!==void 0?`p50 ${e.latencyP50Ms} ms`:null;return u`<span class=${`badge ${e.available?"ok":"off"}`}>${e.available?"available":"unavailable"}</span>
    ${[t,n,e.samples!==void 0?`${e.samples} calls`:null].filter(Boolean).join(" · ")}`}var lf=["SHADOW_ONLY","SCHEDULED","PENDING","SUCCEEDED","FAILED","CANCELED"],Hi={IMMEDIATE:"Immediate",DUE_DATE:"Due date",RECURRING:"Recurring"},Br={reference:"",store:"",merchant:"",status:"",kind:"",createdFrom:"",createdTo:""};function zi(){let[e,t]=F(Br),[n,o]=F(Br),[l,r]=F([]),a=re(async()=>{let $={...n,limit:20};for(let g of["createdFrom","createdTo"])$[g]&&($[g]=new Date($[g]).toISOString());let f=await X("/payment-intents",$);return r([]),f},[JSON.stringify(n)]),i=Re(),d=$=>f=>t({...e,[$]:f.target.value}),h=[...a.data??[],...l];return u`<h1>Payments</h1>
    <${jr} />
    <form class="filters" role="search" aria-label="Search payments" onSubmit=${$=>{$.preventDefault(),Br=e,o({...e})}}>
      <label>Reference <input value=${e.reference} onInput=${d("reference")} /></label>
      <label>Store <input value=${e.store} onInput=${d("store")} /></label>
      <label>Merchant <input value=${e.merchant} onInput=${d("merchant")} /></label>
      <label>Status
        <select value=${e.status} onChange=${d("status")}>
          <option value="">any</option>
          ${lf.map($=>u`<option value=${$}>${$}</option>`)}
        </select>
      </label>
      <label>Kind
        <select value=${e.kind} onChange=${d("kind")}>
          <option value="">All</option>
          ${Object.entries(Hi).map(([$,f])=>u`<option value=${$}>${f}</option>`)}
        </select>
      </label>
      <label>Created from <input type="datetime-local" value=${e.createdFrom} onInput=${d("createdFrom")} /></label>
      <label>Created before <input type="datetime-local" value=${e.createdTo} onInput=${d("createdTo")} /></label>
      <button type="submit" class="primary">Search</button>
    </form>
    <${he} error=${i.error} />
    <${ie} state=${a} what="payments">${()=>u`
      ${h.length===0?u`<p role="status">No payment matches.</p>`:u`<${_l} intents=${h} caption=${`${h.length} payments, newest first`} />`}
      ${h.length&&h.length%20===0?u`<button type="button" disabled=${i.busy} onClick=${async()=>{let $={...n,limit:20,after:h[h.length-1].paymentIntentId};for(let g of["createdFrom","createdTo"])$[g]&&($[g]=new Date($[g]).toISOString());let f=await i.run(()=>X("/payment-intents",$));f&&r([...l,...f])}}>More payments</button>`:null}`}<//>`}function _l({intents:e,caption:t,extra:n}){return u`<div class="scroll"><table>
    <caption>${t}</caption>
    <thead><tr><th scope="col">Reference</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col">Store</th><th scope="col">Provider</th><th scope="col">Created</th>
      ${n?u`<th scope="col">${n.label}</th>`:null}</tr></thead>
    <tbody>${e.map(o=>u`<tr>
      <th scope="row"><a href=${`#/payments/${o.paymentIntentId}`}>${o.reference||o.paymentIntentId}</a></th>
      <td>${Xe(o.amount)}</td><td><span class=${`badge ${o.status}`}>${o.status}</span></td>
      <td>${o.store?.code}</td><td>${o.routing?.providerCode??o.provider?.code??"—"}</td><td>${ne(o.createdAt)}</td>
      ${n?u`<td>${n.cell(o)}</td>`:null}
    </tr>`)}</tbody>
  </table></div>`}var rf={paymentIntentId:"payment id",txid:"txid",endToEndId:"endToEndId"};function jr(){let[e,t]=F(""),[n,o]=F(""),l=Re();async function r(i){i.preventDefault();let d=e.trim();if(!d)return;o(d);let h=await l.run(()=>X("/lookup",{q:d}));h?.length===1&&(location.hash=`#/payments/${encodeURIComponent(h[0].paymentIntentId)}`)}let a=l.result;return u`<form class="row" role="search" aria-label="Find a payment" onSubmit=${r}>
      <label>Payment id, txid or endToEndId
        <input type="search" value=${e} onInput=${i=>t(i.target.value)} maxLength="64" size="40"
          autocomplete="off" spellcheck="false" aria-describedby="lookup-help" />
      </label>
      <button type="submit" disabled=${l.busy}>Find</button>
      <span id="lookup-help" class="muted">One match opens the payment.</span>
    </form>
    <${he} error=${l.error} />
    ${a?.length===0?u`<p role="status">Nothing matches <code>${n}</code>: no payment has it as its id, txid or endToEndId.</p>`:null}
    ${a?.length>1?u`<${_l} intents=${a} caption=${`${a.length} payments match ${n}`}
      extra=${{label:"Matched by",cell:i=>rf[i.matchedBy]??i.matchedBy}} />`:null}`}function Wi({id:e,me:t}){let n=re(()=>X(`/payment-intents/${e}`),[e]),o=re(()=>X(`/payment-intents/${e}/trace`),[e]),l=n.data?.reference;return u`<h1>Payment ${l?u`<q>${l}</q>`:u`<code>${e}</code>`}</h1>
    <p><a href="#/payments">Back to the search</a></p>
    <${ie} state=${n} what="the payment">${r=>u`<${sf} intent=${r} />
      ${r.kind==="DUE_DATE"?u`<${uf} intent=${r} />`:null}
      ${r.kind==="RECURRING"?u`<${ff} intent=${r} />`:null}`}<//>
    <section aria-labelledby="trace-title">
      <h2 id="trace-title">Decision trace</h2>
      <${ie} state=${o} what="the trace">${r=>u`<${pf} trace=${r} />`}<//>
    </section>
    <${af} id=${e} />
    <${hf} id=${e} me=${t} />`}function af({id:e}){let t=re(()=>X(`/payment-intents/${e}/refunds`),[e]);return u`<section aria-labelledby="refunds-title">
    <h2 id="refunds-title">Refunds</h2>
    <${ie} state=${t} what="the refunds">${n=>n.length===0?u`<p class="muted">No refund of this payment.</p>`:u`<div class="scroll"><table>
          <caption>The refunds of this payment, oldest first</caption>
          <thead><tr><th scope="col">Refund</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col">Reason</th><th scope="col">Created</th></tr></thead>
          <tbody>${n.map(o=>u`<tr>
            <th scope="row"><code>${o.refundId}</code></th><td>${Xe(o.amount)}</td>
            <td><span class=${`badge ${o.status}`}>${o.status}</span></td><td>${o.reason??""}</td><td>${ne(o.createdAt)}</td>
          </tr>`)}</tbody>
        </table></div>`}<//>
  </section>`}function sf({intent:e}){return u`<section aria-labelledby="intent-title">
    <h2 id="intent-title">The intent</h2>
    <dl class="facts">
      <dt>Id</dt><dd><code>${e.paymentIntentId}</code></dd>
      <dt>Status</dt><dd><span class=${`badge ${e.status}`}>${e.status}</span></dd>
      <dt>Kind</dt><dd>${Hi[e.kind]??e.kind??"—"}</dd>
      <dt>Amount</dt><dd>${Xe(e.amount)}${e.amountRefunded?` (refunded ${Xe(e.amountRefunded)})`:""}</dd>
      <dt>Store</dt><dd>${e.store?.code} · ${e.merchant}</dd>
      <dt>Route</dt><dd>${e.routing?`${e.routing.policy??""} → ${e.routing.gatewayAlias??"—"} (${e.routing.releaseClass??""})`:"—"}</dd>
      <dt>Fee / net</dt><dd>${e.economics?`${Xe(e.economics.feeAmount)} / ${Xe(e.economics.netAmount)}, settles ${e.economics.settlementDate}`:"—"}</dd>
      <dt>At the PSP</dt><dd>${e.provider?u`${e.provider.code} <code>${e.provider.paymentId??"not paid yet"}</code>`:"—"}</dd>
      ${e.pix?.txid?u`<dt>txid</dt><dd><code>${e.pix.txid}</code></dd>`:null}
      ${e.failure?u`<dt>Failure</dt><dd><code>${e.failure.code}</code> ${e.failure.message}</dd>`:null}
      <dt>Created</dt><dd>${ne(e.createdAt)}</dd>
      ${e.completedAt?u`<dt>Completed</dt><dd>${ne(e.completedAt)}</dd>`:null}
    </dl>
  </section>`}function bl(e,t){return String(e).startsWith("PERCENT")?`${t} %`:Xe(t)}function Bi(e){return String(e).replace(/^(PERCENT|AMOUNT|FIXED)_?/,"").toLowerCase().replace(/_/g," ")}function Vi(e){return`${bl(e.type,e.value)} (${e.type})`}function cf(e){return`${bl(e.type,e.value)} ${Bi(e.type)}`}function df(e){return Array.isArray(e.dates)?e.dates.map(t=>`${bl(e.type,t.value)} until ${t.date}`).join("; "):`${bl(e.type,e.value)} ${Bi(e.type)}`}function uf({intent:e}){let t=e.amountComponents,n=o=>Xe(o??0);return u`<section aria-labelledby="invoice-title">
    <h2 id="invoice-title">Invoice</h2>
    <dl class="facts">
      <dt>Due date</dt><dd>${e.dueDate??"—"}</dd>
      <dt>Payable after it</dt><dd>${e.daysAfterDue??0} days</dd>
      ${e.fine?u`<dt>Fine</dt><dd>${Vi(e.fine)}</dd>`:null}
      ${e.interest?u`<dt>Interest</dt><dd>${cf(e.interest)}</dd>`:null}
      ${e.abatement?u`<dt>Abatement</dt><dd>${Vi(e.abatement)}</dd>`:null}
      ${e.discount?u`<dt>Discount</dt><dd>${df(e.discount)}</dd>`:null}
      ${e.amountPaid!==void 0&&e.amountPaid!==null?u`<dt>Paid</dt><dd>${Xe(e.amountPaid)}${t?` = original ${n(t.original)} + fine ${n(t.fine)} + interest ${n(t.interest)} − abatement ${n(t.abatement)} − discount ${n(t.discount)}`:""}</dd>`:null}
    </dl>
  </section>`}function ff({intent:e}){let t=Array.isArray(e.attempts)?e.attempts:[];return u`<section aria-labelledby="recurring-title">
    <h2 id="recurring-title">Recurring charge</h2>
    <p class="muted">Pix Automático: the payer's bank debits it under the mandate on its due date (the next
      business day when that is not one); there is no code to scan.</p>
    <dl class="facts">
      <dt>Mandate</dt><dd>${e.mandateId?u`<a href=${`#/mandates/${e.mandateId}`}>Mandate <code>${e.mandateId}</code></a>`:"—"}</dd>
      <dt>Due date</dt><dd>${e.dueDate??"—"}</dd>
    </dl>
    <h3>Attempts</h3>
    ${t.length===0?u`<p class="muted">No attempt yet${e.status==="SHADOW_ONLY"?": a SHADOW store's charge never reaches a payer's bank":""}.</p>`:u`<div class="scroll"><table>
          <caption>The attempts at the payer's bank, oldest first</caption>
          <thead><tr><th scope="col">Date</th><th scope="col">Status</th><th scope="col">Failure code</th><th scope="col">Failure</th></tr></thead>
          <tbody>${t.map(n=>u`<tr>
            <th scope="row" class="nowrap">${n.date}</th>
            <td><span class=${`badge ${n.status}`}>${n.status}</span></td>
            <td>${n.failure?.code?u`<code>${n.failure.code}</code>`:""}</td><td>${n.failure?.message??""}</td>
          </tr>`)}</tbody>
        </table></div>`}
  </section>`}function Gr({trace:e}){let t=Ae.map(l=>e[l]).filter(Boolean),n=Array.isArray(e.routes)?e.routes:[],o=e.stopped;return u`
    <ol class="trace">${t.map(l=>u`<li>
      <h3>${l.step}</h3>
      <p>
        Version <${Le} value=${l.component} /> · fuel ${l.fuelUsed} · ${l.durationUs} µs
        ${l.error?u` · <strong>error</strong> <code>${l.error.code??JSON.stringify(l.error)}</code>`:""}
      </p>
      ${l.log?u`<pre class="log" tabindex="0">${l.log}</pre>`:null}
      <${ut} value=${l.output} summary=${`${l.step} output`} />
      <${ut} value=${l.input} summary=${`${l.step} input`} />
    </li>`)}</ol>
    ${o?u`<p role="note">Stopped at the <strong>${o.step}</strong> step (version <${Le} value=${o.component} />):
      <code>${o.code}</code> ${o.message}</p>
      ${o.input!==void 0?u`<${ut} value=${o.input} summary=${`${o.step} input`} />`:null}`:null}
    ${n.length?u`<h3>Routes, in order</h3><div class="scroll"><table>
      <caption>The gateways the chain ranked for this charge</caption>
      <thead><tr><th scope="col">#</th><th scope="col">Gateway</th><th scope="col">Provider</th><th scope="col">Release class</th><th scope="col">Fee</th><th scope="col">Net</th><th scope="col">Why</th></tr></thead>
      <tbody>${n.map((l,r)=>u`<tr>
        <td>${r+1}</td><th scope="row"><code>${l.gateway?.gatewayAlias}</code></th><td>${l.gateway?.providerCode}</td>
        <td>${l.gateway?.releaseClass}</td><td>${rt(l.quote?.feeCentavos)}</td><td>${rt(l.quote?.netCentavos)}</td><td>${l.gateway?.reason??""}</td>
      </tr>`)}</tbody>
    </table></div>`:null}`}function pf({trace:e}){let t=Array.isArray(e.pspCalls)?e.pspCalls:[];return u`<${Gr} trace=${e} />
    <h3>PSP calls</h3>
    ${t.length===0?u`<p class="muted">No PSP was called for this payment.</p>`:u`<div class="scroll"><table>
          <caption>The calls made to PSPs for this payment, in order</caption>
          <thead><tr><th scope="col">When</th><th scope="col">Provider</th><th scope="col">Gateway</th><th scope="col">Call</th><th scope="col">Outcome</th><th scope="col">Took</th><th scope="col">Error</th></tr></thead>
          <tbody>${t.map(n=>u`<tr>
            <td>${ne(new Date(n.at).toISOString())}</td><td>${n.providerCode}</td><td>${n.gatewayAlias??"—"}</td>
            <td><code>${n.operation}</code></td><td>${n.outcome}</td><td>${n.durationMs} ms</td><td>${n.error??""}</td>
          </tr>`)}</tbody>
        </table></div>`}
    <${ut} value=${e} summary="The whole trace as JSON" />`}function hf({id:e,me:t}){let n=re(()=>X(`/payment-intents/${e}/deliveries`),[e]),o=Re();return u`<section aria-labelledby="deliveries-title">
    <h2 id="deliveries-title">Webhook deliveries</h2>
    <${he} error=${o.error} />
    ${o.result?u`<p role="status">The delivery is being sent again.</p>`:null}
    ${u`<${ie} state=${n} what="the deliveries">${l=>l.length?u`<ul class="cards">${l.map(r=>u`<li class="card">
            <h3>${r.event} <span class=${`badge ${r.status}`}>${r.status}</span></h3>
            <p>Delivery <code>${r.deliveryId}</code> to endpoint <code>${r.endpointId}</code></p>
            ${r.nextAttemptAt?u`<p>Next attempt ${ne(r.nextAttemptAt)}</p>`:null}
            <div class="scroll"><table>
              <caption>Attempts</caption>
              <thead><tr><th scope="col">#</th><th scope="col">When</th><th scope="col">HTTP</th><th scope="col">Took</th><th scope="col">Error</th></tr></thead>
              <tbody>${r.attempts.map(a=>u`<tr>
                <td>${a.attempt}</td><td>${ne(a.attemptedAt)}</td><td>${a.httpStatus??"—"}</td>
                <td>${a.durationMs} ms</td><td>${a.error??""}</td>
              </tr>`)}</tbody>
            </table></div>
            ${Te(t,"operator")?u`<button type="button" disabled=${o.busy}
              onClick=${()=>o.run(()=>jt(`/webhook-deliveries/${r.deliveryId}/resend`)).then(a=>a!==void 0&&n.reload())}>
              Resend ${r.event}</button>`:null}
          </li>`)}</ul>`:u`<p class="muted">No webhook delivery for this payment.</p>`}<//>`}
  </section>`}var yl=20,mf=["PENDING_AUTHORIZATION","ACTIVE","REJECTED","EXPIRED","CANCELED","FAILED","SHADOW_ONLY"],Gi={WEEKLY:"Weekly",MONTHLY:"Monthly",QUARTERLY:"Quarterly",SEMIANNUAL:"Every six months",ANNUAL:"Yearly"},$f={QR:"QR code that authorises",QR_WITH_FIRST_PAYMENT:"QR code that pays the first payment and authorises",PUSH:"Request to the payer's bank app"},gf={NONE:"No retry",UP_TO_3_IN_7_DAYS:"Up to 3 retries within 7 days of the due date"},bf={PAYER:"the payer",PAYER_PSP:"the payer's bank",MERCHANT:"the merchant",MERCHANT_PSP:"the merchant's PSP",UNKNOWN:"someone the standard names otherwise"},Yr={merchant:"",store:"",status:"",reference:""};function ji(e){return Object.fromEntries(Object.entries(e).map(([t,n])=>[t,n.trim()]))}function _f(e){return e.amount!==void 0&&e.amount!==null?Xe(e.amount):e.minimumAmount!==void 0&&e.minimumAmount!==null?`at least ${Xe(e.minimumAmount)}`:"named each cycle"}function Yi(){let[e,t]=F(Yr),[n,o]=F(()=>ji(Yr)),[l,r]=F([]),[a,i]=F(!1),d=Re(),h=re(async()=>{let g=await X("/mandates",{...n,limit:yl});return r([]),i(g.length<yl),g},[JSON.stringify(n)]),$=g=>b=>t({...e,[g]:b.target.value}),f=[...h.data??[],...l];return u`<h1>Mandates</h1>
    <p>Every merchant's Pix Automático mandates: what each payer authorised (or was asked to), newest first. Each one
      links to its detail, with its charges by cycle; a mandate that pays its first cycle with the authorisation links
      to that payment.</p>
    <form class="filters" role="search" aria-label="Search mandates" onSubmit=${g=>{g.preventDefault(),Yr=e,o(ji(e))}}>
      <label>Merchant <input value=${e.merchant} onInput=${$("merchant")} placeholder="every merchant" /></label>
      <label>Store <input value=${e.store} onInput=${$("store")} /></label>
      <label>Status
        <select value=${e.status} onChange=${$("status")}>
          <option value="">any</option>
          ${mf.map(g=>u`<option value=${g}>${g}</option>`)}
        </select>
      </label>
      <label>Reference <input value=${e.reference} onInput=${$("reference")} maxLength="35" /></label>
      <button type="submit" class="primary">Search</button>
    </form>
    <${ie} state=${h} what="mandates">${()=>f.length===0?u`<p role="status">No mandate matches.</p>`:u`<div class="scroll"><table>
          <caption>${f.length} ${f.length===1?"mandate":"mandates"}${a?"":" so far"}, newest first</caption>
          <thead><tr><th scope="col">Reference</th><th scope="col">Status</th><th scope="col">Merchant</th><th scope="col">Store</th>
            <th scope="col">Payer</th><th scope="col">Frequency</th><th scope="col">Amount</th><th scope="col">Journey</th><th scope="col">Created</th></tr></thead>
          <tbody>${f.map(g=>u`<tr>
            <th scope="row"><a href=${`#/mandates/${g.mandateId}`}>${g.reference||g.mandateId}</a></th>
            <td><span class=${`badge ${g.status}`}>${g.status}</span></td>
            <td>${g.merchant}</td><td>${g.store?.code}</td><td>${g.payer?.name}</td>
            <td>${Gi[g.frequency]??g.frequency}</td><td class="nowrap">${_f(g)}</td>
            <td><code>${g.journey}</code></td><td>${ne(g.createdAt)}</td>
          </tr>`)}</tbody>
        </table></div>`}<//>
    <${he} error=${d.error} />
    ${h.data&&!a?u`<button type="button" disabled=${d.busy} onClick=${async()=>{let g=await d.run(()=>X("/mandates",{...n,limit:yl,after:f[f.length-1].mandateId}));g&&(r([...l,...g]),i(g.length<yl))}}>More mandates</button>`:null}`}function qi({id:e}){let t=re(()=>X(`/mandates/${encodeURIComponent(e)}`),[e]),n=t.data?.reference;return u`<h1>Mandate ${n?u`<q>${n}</q>`:u`<code>${e}</code>`}</h1>
    <p><a href="#/mandates">Back to the mandates</a></p>
    <${ie} state=${t} what="the mandate">${o=>u`<${wf} mandate=${o} />
      <${vf} charges=${o.charges} />
      <${ut} value=${o.metadata} summary="Metadata, as the merchant sent it" />
      <${ut} value=${o} summary="The whole mandate as JSON" />`}<//>`}function yf(e){if(!Array.isArray(e)||e.length===0)return u`<span class="muted">none yet</span>`;let t=e[e.length-1];return u`${e.length} · last on ${t.date} <span class=${`badge ${t.status}`}>${t.status}</span>
    ${t.failure?.code?u` <code>${t.failure.code}</code>`:null}`}function vf({charges:e}){let t=[...Array.isArray(e)?e:[]].sort((n,o)=>n.cycle-o.cycle);return u`<section aria-labelledby="charges-title">
    <h2 id="charges-title">Charges</h2>
    ${t.length===0?u`<p class="muted">No cycle charged yet.</p>`:u`<div class="scroll"><table>
          <caption>${t.length} ${t.length===1?"charge":"charges"}, by cycle</caption>
          <thead><tr><th scope="col">Cycle</th><th scope="col">Due date</th><th scope="col">Status</th><th scope="col">Amount</th><th scope="col">Attempts</th></tr></thead>
          <tbody>${t.map(n=>u`<tr>
            <th scope="row"><a href=${`#/payments/${n.paymentIntentId}`}>Cycle ${n.cycle}</a></th>
            <td class="nowrap">${n.dueDate}</td><td><span class=${`badge ${n.status}`}>${n.status}</span></td>
            <td class="nowrap">${Xe(n.amount)}</td><td>${yf(n.attempts)}</td>
          </tr>`)}</tbody>
        </table></div>`}
  </section>`}function wf({mandate:e}){let t=e.authorization;return u`<section aria-labelledby="mandate-title">
    <h2 id="mandate-title">The mandate</h2>
    <dl class="facts">
      <dt>Id</dt><dd><code>${e.mandateId}</code></dd>
      <dt>Status</dt><dd><span class=${`badge ${e.status}`}>${e.status}</span></dd>
      <dt>Store</dt><dd>${e.store?.code}</dd>
      <dt>Merchant</dt><dd>${e.merchant}</dd>
      ${e.description?u`<dt>Description</dt><dd>${e.description}</dd>`:null}
      <dt>Payer</dt><dd>${e.payer?.name}</dd>
      <dt>Frequency</dt><dd>${Gi[e.frequency]??e.frequency}</dd>
      <dt>Cycles</dt><dd>from ${e.startDate}${e.endDate?` to ${e.endDate}`:", with no end date"}</dd>
      ${e.minimumAmount!==void 0&&e.minimumAmount!==null?u`<dt>Minimum amount</dt><dd>${Xe(e.minimumAmount)} a cycle (the payer sets their own ceiling)</dd>`:u`<dt>Amount</dt><dd>${e.amount!==void 0&&e.amount!==null?`${Xe(e.amount)} a cycle`:"named by the merchant each cycle"}</dd>`}
      <dt>Charged by pixgate</dt><dd>${e.autoCharge?"yes, each cycle":"no: the merchant asks for each cycle's charge"}</dd>
      <dt>Retry policy</dt><dd>${gf[e.retryPolicy]??e.retryPolicy} <code>${e.retryPolicy}</code></dd>
      <dt>Journey</dt><dd>${$f[e.journey]??e.journey} <code>${e.journey}</code></dd>
      <dt>First payment</dt><dd>${e.firstPayment?.paymentIntentId?u`<a href=${`#/payments/${e.firstPayment.paymentIntentId}`}>Payment <code>${e.firstPayment.paymentIntentId}</code></a>`:u`<span class="muted">none</span>`}</dd>
      <dt>Provider</dt><dd>${e.provider?.code??"—"}</dd>
      <dt>Recurrence id</dt><dd>${e.provider?.recurrenceId?u`<code>${e.provider.recurrenceId}</code>`:u`<span class="muted">none${e.routing?.mode==="SHADOW"?" (a SHADOW store: nothing was sent to a PSP)":""}</span>`}</dd>
      <dt>Route</dt><dd>${e.routing?`${e.routing.mode} · ${e.routing.policy} → ${e.routing.gatewayAlias}`:"—"}</dd>
      ${t?.expiresAt?u`<dt>Authorization expires</dt><dd>${ne(t.expiresAt)}</dd>`:null}
      ${t?.copyAndPaste?u`<dt>Authorization code</dt><dd><code>${t.copyAndPaste}</code></dd>`:null}
      ${e.rejection?u`<dt>Rejection</dt><dd><code>${e.rejection.code}</code> ${e.rejection.message}</dd>`:null}
      ${e.cancellation?u`<dt>Cancellation</dt><dd>by ${bf[e.cancellation.by]??e.cancellation.by} (<code>${e.cancellation.by}</code>): <code>${e.cancellation.code}</code> ${e.cancellation.message}</dd>`:null}
      ${e.failure?u`<dt>Failure</dt><dd><code>${e.failure.code}</code> ${e.failure.message}</dd>`:null}
      <dt>Created</dt><dd>${ne(e.createdAt)}</dd>
      <dt>Updated</dt><dd>${ne(e.updatedAt)}</dd>
    </dl>
  </section>`}function Ki({me:e}){let t=re(()=>Gt("/operators",{},r=>r.id),[]),n=Re(),[o,l]=F(null);return u`<h1>Operators</h1>
    ${Te(e,"admin")?u`<${Sf} onCreated=${t.reload} />`:null}
    <${he} error=${n.error} />
    <${ie} state=${t} what="the operators">${r=>u`<div class="scroll"><table>
      <caption>${r.length} operators</caption>
      <thead><tr><th scope="col">Name</th><th scope="col">Id</th><th scope="col">Role</th><th scope="col">Created</th><th scope="col">Status</th>
        ${Te(e,"admin")?u`<th scope="col"><span class="visually-hidden">Actions</span></th>`:null}</tr></thead>
      <tbody>${r.map(a=>{let i=!!a.revokedAt||a.status==="REVOKED"||a.revoked===!0;return u`<tr>
          <th scope="row">${a.name}</th><td><code>${a.id}</code></td><td>${a.role}</td><td>${ne(a.createdAt)}</td>
          <td>${i?u`<span class="badge off">revoked ${ne(a.revokedAt)}</span>`:u`<span class="badge ok">active</span>`}</td>
          ${Te(e,"admin")?u`<td>${i||a.id===e.id?null:u`<button type="button" onClick=${()=>l(a)}>Revoke ${a.name}</button>`}</td>`:null}
        </tr>`})}</tbody>
    </table></div>`}<//>
    <${dn} open=${!!o} title=${`Revoke ${o?.name??""}?`} confirmLabel="Revoke"
      onCancel=${()=>l(null)}
      onConfirm=${async()=>{let r=o;l(null),await n.run(()=>jt(`/operators/${encodeURIComponent(r.id)}/revoke`))!==void 0&&t.reload()}}>Their token stops working at once.<//>`}function Sf({onCreated:e}){let[t,n]=F(""),[o,l]=F("viewer"),r=Re();return u`<section aria-labelledby="new-operator">
    <h2 id="new-operator">Add an operator</h2>
    <form class="row" onSubmit=${async a=>{a.preventDefault(),await r.run(()=>jt("/operators",{name:t.trim(),role:o}))!==void 0&&(n(""),e())}}>
      <label>Name <input value=${t} onInput=${a=>n(a.target.value)} required maxlength="120" /></label>
      <label>Role
        <select value=${o} onChange=${a=>l(a.target.value)}>
          ${tl.map(a=>u`<option value=${a}>${a}</option>`)}
        </select>
      </label>
      <button type="submit" class="primary" disabled=${r.busy}>Add the operator</button>
    </form>
    <${he} error=${r.error} />
    ${r.result?.token?u`<div class="notice" role="status">
      <p>The token of <strong>${r.result.name}</strong> (${r.result.role}), shown this once: hand it over now.</p>
      <p><label>Token <input readonly value=${r.result.token} onFocus=${a=>a.target.select()} /></label></p>
    </div>`:null}
  </section>`}function Ji(){let[e,t]=F({operator:"",action:"",target:"",since:"",until:""}),[n,o]=F(e),[l,r]=F([]),a=Re(),i=(f,g)=>{let b={...f,limit:50,after:g};for(let S of["since","until"])b[S]&&(b[S]=new Date(b[S]).toISOString());return b},d=re(async()=>(r([]),X("/audit-events",i(n))),[JSON.stringify(n)]),h=f=>g=>t({...e,[f]:g.target.value}),$=[...d.data??[],...l];return u`<h1>Audit trail</h1>
    <form class="filters" role="search" aria-label="Filter the audit trail" onSubmit=${f=>{f.preventDefault(),o({...e})}}>
      <label>Operator id <input value=${e.operator} onInput=${h("operator")} placeholder="bootstrap or an operator's id" /></label>
      <label>Action <input value=${e.action} onInput=${h("action")} placeholder="resource.verb, e.g. store.update" /></label>
      <label>Target <input value=${e.target} onInput=${h("target")} /></label>
      <label>Since <input type="datetime-local" value=${e.since} onInput=${h("since")} /></label>
      <label>Until <input type="datetime-local" value=${e.until} onInput=${h("until")} /></label>
      <button type="submit" class="primary">Filter</button>
    </form>
    <${he} error=${a.error} />
    <${ie} state=${d} what="the audit trail">${()=>u`
      ${$.length===0?u`<p role="status">No event matches.</p>`:u`<div class="scroll"><table>
        <caption>${$.length} events, newest first</caption>
        <thead><tr><th scope="col">When</th><th scope="col">Operator</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">Change</th></tr></thead>
        <tbody>${$.map(f=>u`<tr>
          <td>${ne(f.at)}</td><td>${f.operator?.name??""} <code>${f.operator?.id??""}</code></td><td><code>${f.action}</code></td><td><code>${f.target}</code></td>
          <td>${f.before!==void 0||f.after!==void 0?u`<${ut} value=${{before:f.before,after:f.after}} summary="before and after" />`:""}</td>
        </tr>`)}</tbody>
      </table></div>`}
      ${$.length&&$.length%50===0?u`<button type="button" disabled=${a.busy} onClick=${async()=>{let f=await a.run(()=>X("/audit-events",i(n,$[$.length-1].eventId)));f&&r([...l,...f])}}>Older events</button>`:null}`}<//>`}var kf=[1,6,24,72,168],qr=24,Zi=3,Kr=100;function Xi(){let[e,t]=F(qr),n=re(()=>X("/overview",{hours:e}),[e]),o=re(()=>X("/providers"),[]),l=re(()=>X("/webhook-deliveries",{state:"failing",limit:Kr}),[]),r=()=>{n.reload(),o.reload(),l.reload()},a=Qi(e);return u`<h1>Is anything on fire?</h1>
    <${xf} overview=${n} providers=${o} failing=${l} span=${a} />
    <form class="row" aria-label="Which window" onSubmit=${i=>i.preventDefault()}>
      <label>Hours
        <select value=${e} onChange=${i=>{qr=Number(i.target.value),t(qr)}}>
          ${kf.map(i=>u`<option value=${i}>${Qi(i)}</option>`)}
        </select>
      </label>
      <button type="button" onClick=${r} disabled=${n.loading}>Refresh</button>
    </form>
    <${jr} />
    <${ie} state=${n} what="the overview">${i=>u`
      <${Cf} overview=${i} span=${a} />
      <${Pf} overview=${i} />`}<//>
    <section aria-labelledby="psp-health">
      <h2 id="psp-health">PSP health</h2>
      <${ie} state=${o} what="the providers">${i=>u`<${Tf} providers=${i} />`}<//>
    </section>
    ${n.data?u`
      <${Df} pending=${n.data.pendingLive} />
      <${Rf} stores=${n.data.flaggedStores} />`:null}`}function Qi(e){return e===1?"the last hour":e%24===0?e===24?"the last 24 hours":`the last ${e/24} days`:`the last ${e} hours`}function ec(e){return["PENDING","SUCCEEDED","FAILED","CANCELED"].reduce((t,n)=>t+(e?.[n]??0),0)}function vl(e,t){let n=ec(e);return n?(e?.[t]??0)/n:null}function xf({overview:e,providers:t,failing:n,span:o}){if(e.error||t.error||n.error)return u`<section class="verdict warn" aria-label="Verdict">
      <p><strong>Unknown:</strong> the overview, the providers or the failing webhook deliveries could not be read.</p>
      <${he} error=${n.error} />
    </section>`;if(!e.data||!t.data||!n.data)return u`<p class="muted" role="status">Checking the PSPs, the charges and the webhook deliveries…</p>`;let l=e.data,r=n.data,a=t.data.filter(f=>f.active&&f.health&&f.health.available===!1),i=(l.pendingLive?.byAge??[]).slice(Zi).reduce((f,g)=>f+g.count,0),d=l.totals?.byStatus?.FAILED??0,h=r.length>=Kr?`${Kr} or more`:`${r.length}`,$=[...a.map(f=>u`<a href="#/providers">PSP ${f.name} (<code>${f.code}</code>) is unavailable</a>`),i?u`${i} LIVE ${i===1?"charge has":"charges have"} been pending for over 2 hours (the oldest are listed below)`:null,d?u`${d} LIVE ${d===1?"charge":"charges"} failed in ${o} (${Qn(vl(l.totals.byStatus,"FAILED"))} of the LIVE charges)`:null,r.length?u`<a href="#/deliveries">${h} webhook ${r.length===1?"delivery is":"deliveries are"} failing</a>`:null].filter(Boolean);return $.length?u`<section class="verdict warn" aria-label="Verdict">
    <p><strong>Maybe: ${$.length===1?"this needs":"these need"} a look.</strong></p>
    <ul>${$.map(f=>u`<li>${f}</li>`)}</ul>
  </section>`:u`<section class="verdict ok" aria-label="Verdict">
      <p><strong>No.</strong> Every PSP that reports its health is available, no LIVE charge has been pending for over 2 hours,
        none failed in ${o} and no webhook delivery is failing.</p>
    </section>`}function en({label:e,children:t}){return u`<div class="tile"><dt>${e}</dt><dd>${t}</dd></div>`}function Cf({overview:e,span:t}){let n=e.totals?.byStatus??{};return u`<section aria-labelledby="totals-title">
    <h2 id="totals-title">Totals, ${t}</h2>
    <p class="muted">Charges created from ${ne(e.from)} to ${ne(e.to)}. The rates are shares of the LIVE charges
      (${ec(n)}); a SHADOW store's charges stop at the decision.</p>
    <dl class="tiles">
      <${en} label="Charges">${e.totals?.charges??0}<//>
      <${en} label="Amount">${rt(e.totals?.amountCentavos??0)}<//>
      <${en} label="Success rate">${Qn(vl(n,"SUCCEEDED"))}<//>
      <${en} label="Failed rate">${Qn(vl(n,"FAILED"))}<//>
      <${en} label="Succeeded">${n.SUCCEEDED??0}<//>
      <${en} label="Failed">${n.FAILED??0}<//>
      <${en} label="Pending">${n.PENDING??0}<//>
      <${en} label="Canceled">${n.CANCELED??0}<//>
      <${en} label="Shadow only">${n.SHADOW_ONLY??0}<//>
    </dl>
  </section>`}function Ef(e){let t=(e.bucketSeconds||3600)*1e3,n=new Map((e.series??[]).map(a=>[Date.parse(a.at),a])),o=Math.floor(Date.parse(e.from)/t)*t,l=Date.parse(e.to),r=new Set(n.keys());if(Number.isFinite(o)&&Number.isFinite(l)&&(l-o)/t<=1e3)for(let a=o;a<l;a+=t)r.add(a);return[...r].sort((a,i)=>a-i).map(a=>{let i=n.get(a),d=i?.byStatus??{},h=$=>{let f=vl(d,$);return f===null?null:Math.round(f*1e3)/10};return{at:new Date(a).toISOString(),charges:i?.charges??0,succeeded:d.SUCCEEDED??0,failed:d.FAILED??0,pending:d.PENDING??0,shadow:d.SHADOW_ONLY??0,successRate:h("SUCCEEDED"),failedRate:h("FAILED")}})}function Af(e){return!e||e===3600?"hour":e%3600===0?`${e/3600} hours`:`${Math.round(e/60)} minutes`}function Pf({overview:e}){let t=Ef(e),n=Af(e.bucketSeconds);return u`<section aria-labelledby="volume-title">
    <h2 id="volume-title">Volume and outcomes</h2>
    ${(e.series??[]).length===0?u`<p class="muted">No charge in this window.</p>`:u`<div class="charts">
          <${Lo} title=${`Charges per ${n}`} points=${t} span=${[e.from,e.to]}
            series=${[{key:"charges",label:"charges"},{key:"succeeded",label:"succeeded"},{key:"failed",label:"failed"},{key:"pending",label:"pending"}]} />
          <${Lo} title=${`Success and failed rates per ${n} (% of LIVE charges)`} points=${t} span=${[e.from,e.to]}
            unit=" %" max=${100}
            series=${[{key:"successRate",label:"success rate"},{key:"failedRate",label:"failed rate"}]} />
        </div>`}
  </section>`}function Tf({providers:e}){return e.length?u`<div class="scroll"><table>
    <caption>Each PSP's recent calls, as the <a href="#/providers">Providers</a> page shows them</caption>
    <thead><tr><th scope="col">Provider</th><th scope="col">Status</th><th scope="col">Health</th></tr></thead>
    <tbody>${e.map(t=>u`<tr>
      <th scope="row">${t.name} <code>${t.code}</code></th>
      <td><span class=${`badge ${t.active?"ok":"off"}`}>${t.active?"active":"inactive"}</span></td>
      <td>${gl(t.health)}</td>
    </tr>`)}</tbody>
  </table></div>`:u`<p class="muted">No provider is configured: every store decides in SHADOW only.</p>`}function Df({pending:e}){let t=e?.byAge??[],n=e?.oldest??[];return u`<section aria-labelledby="pending-title">
    <h2 id="pending-title">Pending LIVE charges</h2>
    <p>${e?.count??0} LIVE ${e?.count===1?"charge is":"charges are"} waiting for the payer or the PSP, whenever created.</p>
    <div class="scroll"><table class="narrow">
      <caption>Pending LIVE charges by age</caption>
      <thead><tr><th scope="col">Pending for</th><th scope="col">Charges</th></tr></thead>
      <tbody>${t.map((o,l)=>u`<tr class=${l>=Zi&&o.count?"alarm":void 0}>
        <th scope="row">${o.label}</th><td>${o.count}</td>
      </tr>`)}</tbody>
    </table></div>
    ${n.length?u`<${_l} intents=${n} caption=${`The ${n.length} oldest, oldest first`}
          extra=${{label:"Pending for",cell:o=>If(o.createdAt)}} />`:null}
  </section>`}function If(e){let t=Date.now()-Date.parse(e);if(!Number.isFinite(t))return"—";let n=Math.max(0,Math.floor(t/6e4));if(n<1)return"under a minute";if(n<120)return`${n} min`;let o=Math.floor(n/60);return o<48?`${o} h`:`${Math.floor(o/24)} days`}function Rf({stores:e}){return u`<section aria-labelledby="flagged-title">
    <h2 id="flagged-title">Stores trying a new version</h2>
    ${e?.length?u`<div class="scroll"><table>
          <caption>Stores running a canary or a shadow candidate</caption>
          <thead><tr><th scope="col">Store</th><th scope="col">Merchant</th><th scope="col">Mode</th><th scope="col">Canaries</th><th scope="col">Shadow candidates</th></tr></thead>
          <tbody>${e.map(t=>u`<tr>
            <th scope="row"><a href=${`#/stores/${encodeURIComponent(t.store)}`}>${t.store}</a></th>
            <td>${t.merchant}</td><td><span class=${`badge ${t.mode}`}>${t.mode}</span></td>
            <td>${(t.canaries??[]).length?u`<ul class="plain">${t.canaries.map(n=>u`<li>
              ${n.step} <${Le} value=${n.version} /> on ${n.basisPoints/100} % since ${ne(n.startedAt)}
            </li>`)}</ul>`:u`<span class="muted">none</span>`}</td>
            <td>${(t.candidates??[]).length?u`<ul class="plain">${t.candidates.map(n=>u`<li>
              ${n.step} <${Le} value=${n.version} /> since ${ne(n.since)}:${" "}
              <a href=${`#/shadow/${encodeURIComponent(t.store)}/${n.step}`}>${`${t.store} ${n.step} comparison`}</a>
            </li>`)}</ul>`:u`<span class="muted">none</span>`}</td>
          </tr>`)}</tbody>
        </table></div>`:u`<p class="muted">No store runs a canary or a shadow candidate.</p>`}
  </section>`}var wl=20,Sl="";function nc({me:e}){let[t,n]=F(Sl),[o,l]=F(Sl),[r,a]=F(0),i=Re(),[d,h]=F(null),[$,f]=F(null);async function g(){let b=d;h(null),f(b),await i.run(()=>jt(`/webhook-deliveries/${b.deliveryId}/resend`))!==void 0&&a(x=>x+1)}return u`<h1>Webhook deliveries</h1>
    <p>The events pixgate sends to merchants' webhook endpoints, every merchant's. Each one links to its payment, where
      its attempts are listed one by one.</p>
    <form class="filters" role="search" aria-label="Filter the deliveries" onSubmit=${b=>{b.preventDefault(),Sl=t.trim(),l(Sl)}}>
      <label>Merchant <input value=${t} onInput=${b=>n(b.target.value)} placeholder="every merchant" /></label>
      <button type="submit" class="primary">Filter</button>
    </form>
    <${he} error=${i.error} />
    ${i.busy?u`<p role="status">Sending again…</p>`:null}
    ${i.result&&$?u`<p role="status">The <code>${$.event}</code> delivery to ${$.endpointName} is being sent again.</p>`:null}
    <${tc} id="failing" title="Failing" state="failing" merchant=${o} round=${r} me=${e} onResend=${h}
      caption="exhausted, a failed test, or retrying after a failed attempt"
      none="No delivery is failing." />
    <${tc} id="recent" title="All recent" merchant=${o} round=${r} me=${e} onResend=${h}
      none="No webhook delivery yet." />
    <${dn} open=${!!d} title="Send this delivery again?" confirmLabel="Resend"
      onCancel=${()=>h(null)} onConfirm=${g}>${d?u`The <code>${d.event}</code> event goes to
        ${d.endpointName} (<code>${d.endpointUrl}</code>) again, with the same event id: a receiver that keeps
        the ids it saw handles it once.`:null}<//>`}function tc({id:e,title:t,state:n,merchant:o,round:l,me:r,onResend:a,caption:i,none:d}){let[h,$]=F([]),[f,g]=F(!1),b=Re(),S=re(async()=>{let v=await X("/webhook-deliveries",{state:n,merchant:o,limit:wl});return $([]),g(v.length<wl),v},[n,o,l]),x=[...S.data??[],...h];return u`<section aria-labelledby=${`deliveries-${e}`}>
    <h2 id=${`deliveries-${e}`}>${t}</h2>
    <${ie} state=${S} what=${`the ${t.toLowerCase()} deliveries`}>${()=>x.length===0?u`<p class="muted">${d}</p>`:u`<div class="scroll"><table>
          <caption>${x.length} ${x.length===1?"delivery":"deliveries"}${f?"":" so far"}, newest first${i?`: ${i}`:""}</caption>
          <thead><tr><th scope="col">Endpoint</th><th scope="col">Merchant</th><th scope="col">Event</th><th scope="col">Status</th>
            <th scope="col">Attempts</th><th scope="col">Last error</th><th scope="col">Payment</th><th scope="col">Created</th>
            ${Te(r,"operator")?u`<th scope="col"><span class="visually-hidden">Actions</span></th>`:null}</tr></thead>
          <tbody>${x.map(v=>u`<tr>
            <th scope="row"><span title=${v.endpointUrl}>${v.endpointName}</span></th>
            <td>${v.merchant}</td><td class="nowrap"><code>${v.event}</code></td>
            <td><span class=${`badge ${v.status}`}>${v.status}</span>${v.nextAttemptAt?u`<br /><span class="muted">next ${ne(v.nextAttemptAt)}</span>`:null}</td>
            <td>${v.attemptCount}</td>
            <td>${v.lastError?u`<code>${v.lastError}</code>`:u`<span class="muted">none</span>`}</td>
            <td class="nowrap">${v.paymentIntentId?u`<a href=${`#/payments/${v.paymentIntentId}`}><code title=${v.paymentIntentId}>…${v.paymentIntentId.slice(-12)}</code></a>`:u`<span class="muted">none</span>`}</td>
            <td>${ne(v.createdAt)}</td>
            ${Te(r,"operator")?u`<td><button type="button" onClick=${()=>a(v)}
              aria-label=${`Resend ${v.event} to ${v.endpointName}`}>Resend</button></td>`:null}
          </tr>`)}</tbody>
        </table></div>`}<//>
    <${he} error=${b.error} />
    ${S.data&&!f?u`<button type="button" disabled=${b.busy} onClick=${async()=>{let v=await b.run(()=>X("/webhook-deliveries",{state:n,merchant:o,limit:wl,after:x[x.length-1].deliveryId}));v&&($([...h,...v]),g(v.length<wl))}}>Load more ${t.toLowerCase()} deliveries</button>`:null}
  </section>`}var oc=`{
  "amount": 129.90,
  "reference": "evaluate-0001",
  "description": "2 cafes e 1 pao de queijo",
  "payer": {
    "name": "Ana Souza",
    "taxId": "529.982.247-25",
    "email": "ana.souza@example.com"
  },
  "metadata": {"orderId": "evaluate-0001"}
}`,co={store:"",chosen:{policy:"",provider:"",economics:""},charge:oc,idempotencyKey:""};function lc({me:e,store:t}){let n=re(async()=>{let[o,...l]=await Promise.all([Gt("/stores",{},r=>r.code),...Ae.map(r=>X(`/components/${r}`))]);return{stores:o,versions:Object.fromEntries(Ae.map((r,a)=>[r,l[a]]))}},[]);return u`<h1>Evaluate a charge</h1>
    <p>Runs one charge through a store's chain, as the charge route would, and shows the decision and its trace.
      Nothing is stored and no PSP is called.</p>
    ${Te(e,"tester")?u`<${ie} state=${n} what="stores and versions">${o=>u`<${Lf} key=${t??""} initial=${t} ...${o} />`}<//>`:u`<p role="note">Your role (${e.role}) may not evaluate charges: a tester may.</p>`}`}function Lf({stores:e,versions:t,initial:n}){let o=e.find(x=>x.code===n)??e.find(x=>x.code===co.store)??e[0],[l,r]=F(o?.code??""),[a,i]=F(co.chosen),[d,h]=F(co.charge),[$,f]=F(co.idempotencyKey),g=Re(),b=e.find(x=>x.code===l)?.components??{};async function S(x){x.preventDefault(),co={store:l,chosen:a,charge:d,idempotencyKey:$},await g.run(()=>{let v;try{v=JSON.parse(d)}catch(C){throw new dt(0,"invalid_json",`The charge is not JSON: ${C.message}`,"charge")}if(v===null||typeof v!="object"||Array.isArray(v))throw new dt(0,"invalid_json","The charge must be a JSON object.","charge");let D=Object.fromEntries(Object.entries(a).filter(([,C])=>C)),w={store:l,components:D};$.trim()&&(w.idempotencyKey=$.trim());let E=`${JSON.stringify(w).slice(0,-1)},"charge":${d.trim()}}`;return Qt("POST","/evaluate",{body:new Blob([E]),contentType:"application/json"})})}return u`<form class="stack" onSubmit=${S} aria-label="The charge to evaluate">
      <label>Store
        <select value=${l} onChange=${x=>r(x.target.value)}>
          ${e.map(x=>u`<option value=${x.code}>${x.code} (${x.mode})</option>`)}
        </select>
      </label>
      <fieldset>
        <legend>Versions</legend>
        ${Ae.map(x=>u`<label>${x}
          <select value=${a[x]} onChange=${v=>i({...a,[x]:v.target.value})}>
            <option value="">the store's active (${Mf(b[x])})</option>
            <option value="bundled">bundled</option>
            ${t[x].map(v=>u`<option value=${v.version}>${v.version.slice(0,12)} ${v.label?`${v.label} `:""}(${v.source})</option>`)}
          </select>
        </label>`)}
      </fieldset>
      <label class="wide"><span>Charge (JSON, as a merchant sends it, without <code>store</code>)</span>
        <textarea rows="14" spellcheck="false" value=${d} onInput=${x=>h(x.target.value)} aria-describedby="charge-help"></textarea>
      </label>
      <p id="charge-help" class="muted">Amount in reais with at most two decimals, a reference, a description and the
        payer (name, CPF or CNPJ, e-mail); metadata is optional.</p>
      <label>Idempotency-Key (optional)
        <input value=${$} onInput=${x=>f(x.target.value)} maxLength="200" size="48"
          placeholder="the store's canary arms as for this key" />
      </label>
      <div class="row">
        <button type="submit" class="primary" disabled=${g.busy||!l}>Evaluate</button>
        <button type="button" onClick=${()=>h(oc)}>Reset the charge</button>
      </div>
    </form>
    <${he} error=${g.error} />
    ${g.busy?u`<p role="status">Evaluating…</p>`:null}
    ${g.result?u`<${Nf} evaluation=${g.result} store=${co.store} />`:null}`}function Mf(e){return e?/^[0-9a-f]{64}$/.test(e)?e.slice(0,12):e:"none"}function Nf({evaluation:e,store:t}){let n=e.outcome??{};return u`<section aria-labelledby="evaluation-title" class="report">
    <h2 id="evaluation-title">Decision for ${t}</h2>
    <dl class="facts">
      <dt>Outcome</dt><dd><span class=${`badge ${n.status==="resolved"?"ok":"off"}`}>${n.status}</span> ${Dn(n)}</dd>
      ${n.status==="resolved"?u`
        <dt>Policy</dt><dd><code>${n.policy}</code></dd>
        <dt>Provider</dt><dd>${n.providerCode}</dd>
        <dt>Fee / net</dt><dd>${rt(n.feeCentavos)} / ${rt(n.netCentavos)}, settles ${n.settlementDate}</dd>
        ${e.routes?.length?u`<dt>Routes</dt><dd>${e.routes.length}, tried in the order below by a LIVE charge</dd>`:null}`:u`<dt>Message</dt><dd>${n.message}</dd>`}
    </dl>
    ${e.canaries?.length?u`<h3>Canary arms</h3><ul>${e.canaries.map(o=>u`<li>
      ${o.step}: the ${o.arm==="canary"?"canary":"active version"} (canary <${Le} value=${o.version} /> on ${o.percent} %)</li>`)}</ul>`:null}
    <h3>Trace</h3>
    <${Gr} trace=${e.trace??{}} />
    <${ut} value=${e} summary="The evaluation as JSON" />
  </section>`}var Of=[["overview","Overview"],["stores","Stores"],["components","Components"],["replay","Replay"],["shadow","Shadow"],["providers","Providers"],["payments","Payments"],["mandates","Mandates"],["deliveries","Webhook deliveries"],["evaluate","Evaluate"],["operators","Operators"],["audit","Audit trail"]];function rc(){let e=window.location.hash.replace(/^#\/?/,"").split("/").map(decodeURIComponent);return{section:e[0]||"overview",id:e[1]||null,sub:e[2]||null}}function Ff(){let[e,t]=F(rc);return Wt(()=>{let n=()=>t(rc());return window.addEventListener("hashchange",n),()=>window.removeEventListener("hashchange",n)},[]),e}function Uf({onSignedIn:e,notice:t}){let[n,o]=F(null),[l,r]=F(!1),a=Bt(null);Wt(()=>{a.current?.focus(),performance.mark("console-interactive")},[]);async function i(d){d.preventDefault();let h=a.current.value.trim();if(!h){o(new dt(0,"missing_token","Enter an operator token."));return}r(!0),o(null);try{let $=await cr(h);Xa(h),a.current.value="",e($)}catch($){o($.status===401?new dt(401,$.code,"This token was not accepted: check it, or ask an admin for a new one."):$)}finally{r(!1)}}return u`<main id="main" class="signin">
    <form method="post" onSubmit=${i} aria-labelledby="signin-title">
      <h1 id="signin-title">Sign in to the pixgate console</h1>
      ${t?u`<p role="status">${t}</p>`:null}
      <label for="token">Operator token</label>
      <input id="token" ref=${a} type="password" autocomplete="off" spellcheck="false" required aria-describedby="token-help" />
      <p id="token-help" class="muted">
        Your operator token, or the instance's admin token. It stays in this tab only and is
        forgotten when the tab closes.
      </p>
      <button type="submit" class="primary" disabled=${l}>Sign in</button>
      <${he} error=${n} />
    </form>
  </main>`}function Vf({route:e,me:t}){switch(e.section){case"overview":return u`<${Xi} me=${t} />`;case"stores":return e.id?u`<${ss} code=${e.id} me=${t} />`:u`<${as} me=${t} />`;case"components":return u`<${is} me=${t} />`;case"replay":return u`<${Oi} me=${t} />`;case"shadow":return u`<${Fi} me=${t} store=${e.id} step=${e.sub} />`;case"providers":return u`<${Ui} me=${t} />`;case"payments":return e.id?u`<${Wi} id=${e.id} me=${t} />`:u`<${zi} me=${t} />`;case"mandates":return e.id?u`<${qi} id=${e.id} me=${t} />`:u`<${Yi} me=${t} />`;case"deliveries":return u`<${nc} me=${t} />`;case"evaluate":return u`<${lc} me=${t} store=${e.id} />`;case"operators":return u`<${Ki} me=${t} />`;case"audit":return u`<${Ji} me=${t} />`;default:return u`<h1>Not found</h1><p>No such section. <a href="#/overview">Go to the overview</a>.</p>`}}function Hf({me:e,onSignOut:t}){let n=Ff(),o=Bt(null),l=Bt(!0);return Wt(()=>{if(l.current){l.current=!1;return}o.current?.focus()},[n.section,n.id,n.sub]),u`
    <a class="skip" href="#/" onClick=${r=>{r.preventDefault(),o.current?.focus()}}>Skip to content</a>
    <header class="top">
      <span class="brand">pixgate</span>
      <nav aria-label="Sections">
        <ul>
          ${Of.map(([r,a])=>u`<li><a href=${`#/${r}`} aria-current=${n.section===r?"page":void 0}>${a}</a></li>`)}
        </ul>
      </nav>
      <div class="who">
        <span>${e.name} <span class="role">${e.role}</span></span>
        <button type="button" onClick=${t}>Sign out</button>
      </div>
    </header>
    <main id="main" ref=${o} tabindex="-1">
      <${Vf} route=${n} me=${e} />
    </main>`}function zf(){let[e,t]=F(null),[n,o]=F(!!ko()),[l,r]=F(null);return Wt(()=>{es(()=>{el(),t(null),r("Your session ended (the token was revoked or is no longer valid). Sign in again.")});let a=ko();a&&cr(a).then(t,()=>el()).finally(()=>o(!1))},[]),n?u`<p role="status">Checking your session…</p>`:e?u`<${Hf} me=${e} onSignOut=${()=>{el(),t(null),r("Signed out.")}} />`:u`<${Uf} notice=${l} onSignedIn=${a=>{r(null),t(a)}} />`}var ac=document.getElementById("app");ac.replaceChildren();Fa(u`<${zf} />`,ac);})();
