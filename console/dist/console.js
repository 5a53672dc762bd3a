(()=>{var ve,Ra,qc,sn,Ql,Jo,La,qo,Ma,Xl,Zl,Yc,vo=Symbol.for("pv"),Qo={},Zo=[],Kc=/^m(i|n|o|s|text|space)$/,er=Array.isArray,tr=Zo.slice,kn=Object.assign;function Sn(e){e&&e.parentNode&&e.remove()}function Na(e,t,n){var o,l,a,r={},i=arguments.length;for(a in t)a=="key"?o=t[a]:a=="ref"&&typeof e!="function"?l=t[a]:r[a]=t[a];return i>2&&(r.children=i>3?tr.call(arguments,2):n),_o(e,r,o,l,null)}function _o(e,t,n,o,l){var a={type:e,props:t,key:n,ref:o,__k:null,__:null,__b:0,__e:null,__c:null,constructor:vo,__v:l||++Ra,__i:-1,__u:0};return!l&&ve.vnode&&ve.vnode(a),a}function Xo(e){return e.children}function Yo(e,t){this.props=e,this.context=t,this.__g=0}function cn(e,t){if(t==null)return e.__&&cn(e.__,e.__i+1);for(var n;t<e.__k.length;t++)if((n=e.__k[t])&&n.__e)return n.__e;return typeof e.type!="function"||e.props.__P?null:cn(e)}function Jc(e){var t,n=e.__v,o=n.__e,l=[],a=[],r=e.__P;r&&((t=kn({constructor:vo},n)).__v=n.__v+1,ve.vnode&&ve.vnode(t),nr(r,t,n,e.__n,r.namespaceURI,32&n.__u?[o]:null,l,o||cn(n),32&n.__u,a),t.__v=n.__v,t.__.__k[t.__i]=t,za(l,t,a),n.__=n.__e=null,t.__e!=o&&Oa(t))}function Oa(e){if((e=e.__)&&e.__c&&!e.props.__P)return e.__e=null,e.__k.some(function(t){return t&&(e.__e=t.__e)}),Oa(e)}function Da(e){(8&e.__g||(e.__g|=8,sn.push(e),Jo++))&&Ql==ve.debounceRendering||((Ql=ve.debounceRendering)||queueMicrotask)(Fa)}function Fa(){try{for(var e,t=1;sn.length;)sn.length>t&&sn.sort(La),e=sn.shift(),t=sn.length,8&e.__g&&Jc(e)}finally{(Jo=sn.length)&&(Ql||queueMicrotask)(Fa)}}function Ua(e,t,n,o,l,a,r,i,u,h,m){var f,g,b,S,x,v,D=o.__k||Zo,w=t.length;for(u=Qc(n,t,D,u,w),f=0;f<w;f++)(b=n.__k[f])!=null&&(g=~b.__i&&D[b.__i]||Qo,b.__i=f,v=nr(e,b,g,l,a,r,i,u,h,m),S=b.__e,(g.ref!=b.ref||8&g.__u)&&(g.ref&&or(g.ref,null,b,g),b.ref&&m.push(b.ref,b.__c||S,b)),x=x||S,4&b.__u?(u=Va(b,u,e,!g.__v),g.__e&&(g.__e=null)):typeof b.type=="function"&&v!==void 0?u=v:S&&(u=S.nextSibling),b.__u&=-21);return n.__e=x,u}function Qc(e,t,n,o,l){var a,r,i,u,h,m,f,g,b,S=n.length,x=S,v=0,D=0,w=e.__k=Array(l);for(a=0;a<l;a++)(r=t[a])!=null&&typeof r!="boolean"&&typeof r!="function"?(typeof r!="object"||r.constructor===String?r=w[a]=_o(null,r):er(r)?r=w[a]=_o(Xo,{children:r}):r.constructor===vo&&r.__b?r=w[a]=_o(r.type,r.props,r.key,r.ref,r.__v):w[a]=r,u=a+v,r.__=e,r.__b=e.__b+1,i=null,~(h=r.__i=Zc(r,n,u,x))&&(x--,(i=n[h])&&(i.__u|=2)),i&&i.__v?(r.__u|=16,h==u-1?v--:h==u+1?v++:h!=u&&(h>u?v--:v++,D=1)):(~h||(l>S?v--:l<S&&v++),typeof r.type!="function"&&(r.__u|=4))):w[a]=null;if(D){for(m=[],f=[],a=0;a<l;a++)if((r=w[a])&&16&r.__u){for(v=0,g=m.length;v<g;)m[b=v+g>>1]<r.__i?v=b+1:g=b;m[v]=r.__i,f[a]=v+1}for(v=m.length;a--;)f[a]&&(f[a]==v?v--:w[a].__u|=4)}if(x)for(a=0;a<S;a++)!(i=n[a])||2&i.__u||(i.__e==o&&(o=cn(i)),lr(i,i));return o}function Va(e,t,n,o){var l,a,r,i;if(typeof e.type=="function"){if(e.props.__P)return t;if(l=e.__k)for(a=0;a<l.length;a++)l[a]&&(l[a].__=e,t=Va(l[a],t,n,!1));return t}for(t&&!t.parentNode&&(t=cn(e))&&!t.parentNode&&(t=null),r=e.__e,i=t;i&&i.nodeType==8;)i=i.nextSibling;for(r!=i&&(!o&&n.moveBefore&&r.parentNode?n.moveBefore(r,t):n.insertBefore(r,t||null)),t=r;(t=t&&t.nextSibling)&&t.nodeType==8&&!t.data.startsWith("$s"););return t}function Zc(e,t,n,o){var l,a=e.key,r=e.type,i=t[n],u=i&&!(2&i.__u);if(i===null&&a==null||u&&a==i.key&&r==i.type)return n;if(o>(u?1:0)){for(l=n-1;l>=0;l--)if((i=t[l])&&!(2&i.__u)&&a==i.key&&r==i.type)return l;for(l=n+1;l<t.length;l++)if((i=t[l])&&!(2&i.__u)&&a==i.key&&r==i.type)return l}return-1}function Ia(e,t,n){n==null&&(n=""),t[0]=="-"?e.setProperty(t,n):e[t]=n}function Go(e,t,n,o,l){var a,r;if(t=="style")if(typeof n=="string")e.style.cssText=n;else{if(typeof o=="string"&&(e.style.cssText=o=""),o)for(t in o)n&&t in n||Ia(e.style,t);if(n)for(t in n)o&&n[t]==o[t]||Ia(e.style,t,n[t])}else if(t[0]=="o"&&t[1]=="n")typeof n!="function"&&(n=null),typeof o!="function"&&(o=null),(e.__e||(e.__e={}))[t]=n,n&&o||(r=Zl[t]||(Zl[t]=Xc(t)),(e.__a||(e.__a={}))[t]=Xl,a=t!=(t=t.replace(Ma,"$1")),(t=t.slice(2))[0]<"a"&&(t=t.toLowerCase()),n?e.addEventListener(t,r,a):e.removeEventListener(t,r,a));else{if(l=="http://www.w3.org/2000/svg")t=t.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(t!="width"&&t!="height"&&t!="href"&&t!="list"&&t!="form"&&t!="tabIndex"&&t!="download"&&t!="rowSpan"&&t!="colSpan"&&t!="role"&&t!="popover"&&t in e)try{return void(e[t]=n??"")}catch{}if(typeof n=="function")return;n==null||n===!1&&t[4]!="-"?e.removeAttribute(t):e.setAttribute(t,t=="popover"&&n==1?"":n)}}function Xc(e){return function(t){var n=this.__e;if(n){if(n=n[e],t[qo]==null)t[qo]=Xl++;else if(t[qo]<this.__a[e])return;return n(ve.event?ve.event(t):t)}}}function nr(e,t,n,o,l,a,r,i,u,h){var m,f,g,b,S,x,v,D,w,A,C,J,O,Q,B,ee,W,T,j=t.type;if(t.constructor!==vo)return null;128&n.__u&&(u=32&n.__u,m=n.__c.__z)&&(t.__u|=u,f=a=[],m.nodeType==8?i=Ko(m,a):a.push(m),i=a[0]||i),(m=ve.__b)&&m(t);e:if(typeof j=="function"){g=r.length;try{if(D=t.props,w=(m=j.prototype)&&m.render,A=(m=j.contextType)&&o[m.__c],C=m?A?A.props.value:m.__:o,(b=n.__c)?(t.__c=b,2&b.__g&&(b.__g|=1)):(w?t.__c=b=new j(D,C):(t.__c=b=new Yo(D,C),b.constructor=j,b.render=td),A&&A.sub(b),b.state||(b.state={}),b.__n=o,b.__g|=8,b.__h=[],b.__k=[]),w&&(b.__s||(b.__s=b.state),j.getDerivedStateFromProps&&(b.__s==b.state&&(b.__s=kn({},b.__s)),kn(b.__s,j.getDerivedStateFromProps(D,b.__s)))),S=b.props,x=b.state,b.__v=t,n.__c){if(D!==S&&w&&!j.getDerivedStateFromProps&&b.componentWillReceiveProps&&b.componentWillReceiveProps(D,C),t.__v==n.__v&&!(8&b.__g)||!(4&b.__g)&&b.shouldComponentUpdate&&b.shouldComponentUpdate(D,b.__s,C)===!1){t.__v!=n.__v&&(b.props=D,b.state=b.__s,b.__g&=-9),t.__e=n.__e,t.__k=n.__k,t.__k.some(function(L){L&&(L.__=t)}),Zo.push.apply(b.__h,b.__k),b.__k=[],b.__h.length&&r.push(b),i=cn(n);break e}b.componentWillUpdate&&b.componentWillUpdate(D,b.__s,C),w&&b.componentDidUpdate&&b.__h.push(function(){b.componentDidUpdate(S,x,v)})}else w&&!j.getDerivedStateFromProps&&b.componentWillMount&&b.componentWillMount(),w&&b.componentDidMount&&b.__h.push(b.componentDidMount);b.context=C,b.props=D,b.__P=e,b.__g&=-5,J=ve.__r,O=w?25:0;do b.__g&=-9,J&&J(t),m=b.render(b.props,b.state=b.__s,b.context);while(8&b.__g&&++O<25);w&&(Zo.push.apply(b.__h,b.__k),b.__k=[]),b.state=b.__s,b.getChildContext&&(o=kn({},o,b.getChildContext())),w&&n.__c&&b.getSnapshotBeforeUpdate&&(v=b.getSnapshotBeforeUpdate(S,x)),Q=m&&m.type===Xo&&m.key==null?m.props.children:m,D.__P&&(m=i,l=(e=D.__P).namespaceURI,u=a=null,n.props&&n.props.__P!=e&&(n.__k.some(function(L){L&&lr(L,L)}),n.__k=null),i=n.__k?cn(n,0):null),i=Ua(e,er(Q)?Q:[Q],t,n,o,l,a,r,i,u,h),D.__P&&(t.__e=null,i=m),t.__u&=-161,f&&f.some(Sn),b.__h.length&&r.push(b),1&b.__g&&(b.__g&=-4)}catch(L){if(r.length=g,t.__v=null,u||a)if(L&&L.then){if(t.__u|=128|u,a){for(~(W=a.indexOf(i||void 0))||(W=a.length);(T=a[W-1])&&T.nodeType==8;)W--;for(;W<a.length;W++)if(T=a[W])if(a[W]=null,B){if(T==ee)break}else{if(T.nodeType!=8)break;T.data.startsWith("$s")&&(ee=Ko(B=T))}}if(!B){for(;i&&i.nodeType==8&&i.nextSibling;)i=i.nextSibling;B=i}(m=Ko(B=t.__c.__z||(t.__c.__z=B)))?(t.__e=B,i=m):t.__e=i,i=i&&i.nextSibling}else a&&a.some(Sn);else t.__e=n.__e;t.__k||(t.__k=n.__k||[]),L&&L.then||Ha(t),ve.__e(L,t,n)}}else i=t.__e=ed(n.__e,t,n,o,l,a,r,u,h,e);return(m=ve.diffed)&&m(t),i}function Ko(e,t){if(e&&e.nodeType==8&&e.data.startsWith("$s"))for(var n=1;e=e.nextSibling;){if(e.nodeType==8){if(e.data.startsWith("$s"))n++;else if(e.data.startsWith("/$s")&&!--n)return e}t&&t.push(e)}}function Ha(e){e&&(e.__c&&(e.__c.__g|=4),e.__k&&e.__k.some(Ha))}function za(e,t,n){for(var o=0;o<n.length;)or(n[o++],n[o++],n[o++]);ve.__c&&ve.__c(t,e),e.some(function(l){try{e=l.__h,l.__h=[],e.some(function(a){a.call(l)})}catch(a){ve.__e(a,l.__v)}})}function ed(e,t,n,o,l,a,r,i,u,h){var m,f,g,b,S,x,v,D,w=n.props||Qo,A=t.props,C=t.type;if(C=="svg"?l="http://www.w3.org/2000/svg":C=="math"?l="http://www.w3.org/1998/Math/MathML":l||(l="http://www.w3.org/1999/xhtml"),a){for(m=0;m<a.length;m++)if((S=a[m])&&(C?S.localName==C:S.nodeType==3)){e=S,a[m]=null;break}}if(!e){if(D=h.ownerDocument||document,!C)return D.createTextNode(A);e=D.createElementNS(l,C,A.is?A:h),i&&(ve.__m&&ve.__m(t,a),i=!1),a=null}if(C){if(h=C=="template"&&e.content||e,a=C=="textarea"&&A.defaultValue!=null?null:a&&tr.call(h.childNodes),!i&&a)for(w={},m=0;m<e.attributes.length;m++)w[(S=e.attributes[m]).name]=S.value;for(m in w)S=w[m],m=="dangerouslySetInnerHTML"?g=S:m=="children"||m in A||m=="value"&&"defaultValue"in A||m=="checked"&&"defaultChecked"in A||Go(e,m,null,S,l);for(m in A)S=A[m],m=="children"?b=S:m=="dangerouslySetInnerHTML"?f=S:m=="value"?x=S:m=="checked"?v=S:i&&typeof S!="function"||w[m]===S||Go(e,m,S,w[m],l);f?(i||g&&(f.__html==g.__html||f.__html==e.innerHTML)||(e.innerHTML=f.__html),t.__k=[]):(g&&(e.textContent=""),(C=="foreignObject"||l=="http://www.w3.org/1998/Math/MathML"&&Kc.test(C))&&(l="http://www.w3.org/1999/xhtml"),Ua(h,er(b)?b:[b],t,n,o,l,a,r,a?a[0]:n.__k&&cn(n,0),i,u),a&&a.some(Sn)),i&&C!="textarea"||(m="value",C=="progress"&&x==null?e.removeAttribute(m):x==null||x===e[m]&&(C!="progress"||x)||Go(e,m,x,w[m],l),m="checked",v!=null&&v!=e[m]&&Go(e,m,v,w[m],l))}else w===A||i&&e.data==A||(e.data=A);return e}function or(e,t,n,o){try{typeof e=="function"?t?t.__x=e(t)||1:o&&(o=o.__c||o.__e)&&(t=o.__x)&&(o.__x=null,typeof t=="function"?t():e(null)):e.current=t}catch(l){ve.__e(l,n)}}function lr(e,t,n){var o,l,a,r;if(ve.unmount&&ve.unmount(e),!(o=e.ref)||o.current&&o.current!=e.__e||or(o,null,t,e),o=e.__c){if(o.componentWillUnmount)try{o.componentWillUnmount()}catch(i){ve.__e(i,t)}o.__P=o.__n=null}if(o=e.__k)for(r=0;r<o.length;r++)o[r]&&lr(o[r],t,typeof e.type!="function"||n&&!e.props.__P);!n&&(o=e.__c)&&(o=o.__z)&&(l=Ko(o,a=[]))&&(o==e.__e&&a.some(Sn),Sn(l),Sn(o)),n||Sn(e.__e),e.__e=e.__c=e.__=null}function td(e,t,n){return this.constructor(e,n)}function Wa(e,t){var n,o,l,a;ve.__&&ve.__(e,t),t.nodeType==9&&(t=t.documentElement),o=(n=e&&32&e.__u)?null:t.__k,t.__k=_o(Xo,{children:[e]}),l=[],a=[],nr(t,t.__k,o||Qo,Qo,t.namespaceURI,o?null:t.firstChild?tr.call(t.childNodes):null,l,o?o.__e:t.firstChild,n,a),za(l,t.__k,a),t.__k.props.children=null}ve={__e:function(e,t,n,o){for(var l,a,r;t=t.__;)if((l=t.__c)&&!(1&l.__g)){l.__g|=4;try{if((r=(a=l.constructor)&&a.getDerivedStateFromError)&&l.setState(a.getDerivedStateFromError(e)),l.componentDidCatch&&(l.componentDidCatch(e,o||{}),r=1),r&&8&l.__g)return void(l.__g|=2)}catch(i){e=i}}throw Jo=0,e}},Ra=0,qc=function(e){return e!=null&&e.constructor===vo},Yo.prototype.setState=function(e,t){var n=this.__s;n&&n!=this.state||(n=this.__s=kn({},this.state)),typeof e=="function"&&(e=e(kn({},n),this.props)),e&&(kn(n,e),this.__v&&(t&&this.__k.push(t),Da(this)))},Yo.prototype.forceUpdate=function(e){this.__v&&(this.__g|=4,e&&this.__h.push(e),Da(this))},Yo.prototype.render=Xo,sn=[],Jo=0,La=function(e,t){return e.__v.__b-t.__v.__b},qo=Symbol(),Ma=/(PointerCapture)$|Capture$/i,Xl=0,Zl={},Yc=0;var So,He,rr,Ba,ar=Object.is,ko=0,Xa=[],sr=[],Oe=ve,ja=Oe.__b,Ga=Oe.__r,qa=Oe.diffed,Ya=Oe.__c,Ka=Oe.unmount,Ja=Oe.__;function cr(e,t){Oe.__h&&Oe.__h(He,e,ko||t),ko=0;var n=He.__H||(He.__H={__:[],__h:[]});return e>=n.__.length&&n.__.push({}),n.__[e]}function I(e){return ko=1,nd(ns,e)}function nd(e,t,n){var o=cr(So++,2);if(o.t=e,!o.__c&&(o.__=[n?n(t):ns(void 0,t),function(a){var r=(o.__N||o.__)[0],i=o.t(r,a);ar(r,i)||(o.__N=[i,o.__[1]],o.__c.setState({}))}],o.__c=He,!He.__f)){He.__f=!0;var l=He.shouldComponentUpdate;He.shouldComponentUpdate=function(a,r,i){var u=this.__H;if(!u)return!0;var h=!1,m=this.props!=a;if(u.__.some(function(g){g.__N&&(h=!0,ar(g.__[0],g.__N[0])||(m=!0))}),l){var f=l.call(this,a,r,i);return h?f||m:f}return!h||m}}return o.__}function gt(e,t){var n=cr(So++,3);!Oe.__s&&ts(n.__H,t)&&(n.__P=!0,n.__=e,n.u=t,He.__H.__h.push(n))}function jt(e){return ko=5,es(function(){return{current:e}},[])}function es(e,t){var n=cr(So++,7);return ts(n.__H,t)&&(n.__=e(),n.__H=t),n.__}function dr(e,t){return ko=8,es(function(){return e},t)}function od(){var e;do{for(;e=sr.shift();)try{wo(e)}catch(n){Oe.__e(n,{__:(e=e.__P)&&e.__v})}for(;e=Xa.shift();){var t=e.__H;if(e.__P&&t)try{t.__h.some(wo),t.__h.some(ir),t.__h=[]}catch(n){t.__h=[],Oe.__e(n,e.__v)}}}while(sr.length)}Oe.__b=function(e){He=null,ja&&ja(e)},Oe.__=function(e,t){e&&t.__k&&t.__k.__m&&(e.__m=t.__k.__m),Ja&&Ja(e,t)},Oe.__r=function(e){Ga&&Ga(e),So=0;var t=(He=e.__c).__H;t&&(rr==He?He.__h=[]:(t.__h.some(wo),t.__h.some(ir),So=0),t.__h=[],t.__.some(function(n){n.__N&&(n.__=n.__N),n.u=n.__N=void 0})),rr=He},Oe.diffed=function(e){qa&&qa(e);var t=e.__c;t&&t.__H&&(t.__H.__h.length&&Za(Xa.push(t)),t.__H.__.some(function(n){n.u&&(n.__H=n.u)})),rr=He=null},Oe.__c=function(e,t){t.some(function(n){try{n.__h.some(wo),n.__h=n.__h.filter(function(o){return!o.__||ir(o)})}catch(o){n.__h=[function(){throw o}]}}),Ya&&Ya(e,t)},Oe.unmount=function(e){Ka&&Ka(e);var t,n,o=e.__c;o&&o.__H&&(o.__H.__.some(function(l){try{if(l.__P&&l.__c){if(n===void 0){for(n=e.__;n&&(!n.__c||!n.__c.__P);)n=n.__;n=n&&n.__c}l.__P=n,Za(sr.push(l))}else wo(l)}catch(a){t=a}}),o.__H=void 0,t&&Oe.__e(t,o.__v))};var Qa=typeof requestAnimationFrame=="function";function ld(e){var t,n=function(){clearTimeout(o),Qa&&cancelAnimationFrame(t),setTimeout(e)},o=setTimeout(n,35);Qa&&(t=requestAnimationFrame(n))}function Za(e){e!=1&&Ba==Oe.requestAnimationFrame||((Ba=Oe.requestAnimationFrame)||ld)(od)}function wo(e){var t=He,n=e.__c;typeof n=="function"&&(e.__c=void 0,n()),He=t}function ir(e){var t=He;e.__c=e.__(),He=t}function ts(e,t){return!e||e.length!=t.length||t.some(function(n,o){return!ar(n,e[o])})}function ns(e,t){return typeof t=="function"?t(e):t}var ur="pixgate.operatorToken",fr="/admin/v1";function Qn(){return sessionStorage.getItem(ur)}function os(e){sessionStorage.setItem(ur,e)}function el(){sessionStorage.removeItem(ur)}var et=class extends Error{constructor(t,n,o,l){super(o),this.status=t,this.code=n,this.field=l}},tl=()=>{};function ls(e){tl=e}async function Qt(e,t,{body:n,query:o,token:l,contentType:a}={}){let r=l??Qn(),i={Accept:"application/json"};r&&(i.Authorization=`Bearer ${r}`);let u;n instanceof Blob||n instanceof ArrayBuffer?(i["Content-Type"]=a??"application/octet-stream",u=n):n!==void 0&&(i["Content-Type"]="application/json",u=JSON.stringify(n));let h=fr+t;if(o){let b=new URLSearchParams;for(let[x,v]of Object.entries(o))v!=null&&v!==""&&b.set(x,v);let S=b.toString();S&&(h+=`?${S}`)}let m;try{m=await fetch(h,{method:e,headers:i,body:u,credentials:"omit",cache:"no-store"})}catch(b){throw new et(0,"network_error",`The admin API did not answer (${b.message}).`)}let f=null,g=await m.text();if(g)try{f=JSON.parse(g)}catch{f=null}if(!m.ok){let b=f?.error??{},S=new et(m.status,b.code??`http_${m.status}`,b.message??`${m.status} ${m.statusText}`,b.field);throw m.status===401&&l===void 0&&tl(S),S}return f?.data??f}async function rs(e,t){let n={Accept:"application/x-ndjson","Content-Type":"application/json"},o=Qn();o&&(n.Authorization=`Bearer ${o}`);let l;try{l=await fetch(`${fr}/replays`,{method:"POST",headers:n,body:JSON.stringify(e),credentials:"omit",cache:"no-store"})}catch(i){throw new et(0,"network_error",`The admin API did not answer (${i.message}).`)}if(!l.ok||!l.headers.get("content-type")?.startsWith("application/x-ndjson")){let u=(await l.json().catch(()=>null))?.error??{},h=new et(l.status,u.code??`http_${l.status}`,u.message??`${l.status} ${l.statusText}`,u.field);throw l.status===401&&tl(h),h}let a=l.body.pipeThrough(new TextDecoderStream).getReader(),r="";for(;;){let{value:i,done:u}=await a.read();if(u)break;r+=i;let h;for(;(h=r.indexOf(`
`))>=0;){let m=JSON.parse(r.slice(0,h));if(r=r.slice(h+1),m.progress)t(m.progress);else{if(m.success)return m.data;throw new et(200,m.error?.code??"replay_failed",m.error?.message??"The replay failed.")}}}throw new et(0,"network_error","The replay ended before its report.")}async function pr(e,t){let n={Accept:"text/csv, application/json"},o=Qn();o&&(n.Authorization=`Bearer ${o}`);let l=new URLSearchParams;for(let[i,u]of Object.entries(t??{}))u!=null&&u!==""&&l.set(i,u);let a=l.toString(),r;try{r=await fetch(`${fr}${e}${a?`?${a}`:""}`,{headers:n,credentials:"omit",cache:"no-store"})}catch(i){throw new et(0,"network_error",`The admin API did not answer (${i.message}).`)}if(!r.ok){let u=(await r.json().catch(()=>null))?.error??{},h=new et(r.status,u.code??`http_${r.status}`,u.message??`${r.status} ${r.statusText}`,u.field);throw r.status===401&&tl(h),h}return r.text()}var q=(e,t)=>Qt("GET",e,{query:t}),At=(e,t)=>Qt("POST",e,{body:t??{}}),xo=(e,t)=>Qt("PUT",e,{body:t}),Co=e=>Qt("DELETE",e);async function Gt(e,t,n,o=1e3){let l=[],a;for(;;){let r=await q(e,{...t,limit:100,after:a});if(l.push(...r),r.length<100||l.length>=o)return l;a=n(r[r.length-1])}}async function hr(e){return Qt("GET","/operators/me",{token:e})}var ss=function(e,t,n,o){var l;t[0]=0;for(var a=1;a<t.length;a++){var r=t[a++],i=t[a]?(t[0]|=r?1:2,n[t[a++]]):t[++a];r===3?o[0]=i:r===4?o[1]=Object.assign(o[1]||{},i):r===5?(o[1]=o[1]||{})[t[++a]]=i:r===6?o[1][t[++a]]+=i+"":r?(l=e.apply(i,ss(e,i,n,["",null])),o.push(l),i[0]?t[0]|=2:(t[a-2]=0,t[a]=l)):o.push(i)}return o},as=new Map;function is(e){var t=as.get(this);return t||(t=new Map,as.set(this,t)),(t=ss(this,t.get(e)||(t.set(e,t=(function(n){for(var o,l,a=1,r="",i="",u=[0],h=function(g){a===1&&(g||(r=r.replace(/^\s*\n\s*|\s*\n\s*$/g,"")))?u.push(0,g,r):a===3&&(g||r)?(u.push(3,g,r),a=2):a===2&&r==="..."&&g?u.push(4,g,0):a===2&&r&&!g?u.push(5,0,!0,r):a>=5&&((r||!g&&a===5)&&(u.push(a,0,r,l),a=6),g&&(u.push(a,g,0,l),a=6)),r=""},m=0;m<n.length;m++){m&&(a===1&&h(),h(m));for(var f=0;f<n[m].length;f++)o=n[m][f],a===1?o==="<"?(h(),u=[u],a=3):r+=o:a===4?r==="--"&&o===">"?(a=1,r=""):r=o+r[0]:i?o===i?i="":r+=o:o==='"'||o==="'"?i=o:o===">"?(h(),a=1):a&&(o==="="?(a=5,l=r,r=""):o==="/"&&(a<5||n[m][f+1]===">")?(h(),a===3&&(u=u[0]),a=u,(u=u[0]).push(2,0,a),a=0):o===" "||o==="	"||o===`
`||o==="\r"?(h(),a=2):r+=o),a===3&&r==="!--"&&(a=4,u=u[0])}return h(),u})(e)),t),arguments,[])).length>1?t:t[0]}var d=is.bind(Na),nl=["viewer","tester","operator","admin"];function xe(e,t){return nl.indexOf(e?.role)>=nl.indexOf(t)}function te(e,t){let[n,o]=I({loading:!0,data:void 0,error:null}),l=dr(()=>{let a=!0;return o(r=>({...r,loading:!0,error:null})),e().then(r=>a&&o({loading:!1,data:r,error:null}),r=>a&&o({loading:!1,data:void 0,error:r})),()=>{a=!1}},t);return gt(l,[l]),{...n,reload:l}}function ge(){let[e,t]=I({busy:!1,error:null,result:void 0}),n=dr(async o=>{t({busy:!0,error:null,result:void 0});try{let l=await o();return t({busy:!1,error:null,result:l}),l}catch(l){t({busy:!1,error:l,result:void 0});return}},[]);return{...e,run:n}}function se({error:e}){return e?d`<p class="error" role="alert">
    ${e.message}${e.code?d` <code>${e.code}</code>`:null}
  </p>`:null}function rd({what:e}){return d`<p class="muted" role="status">Loading ${e}…</p>`}function le({state:e,what:t,children:n}){return e.error?d`<${se} error=${e.error} />`:e.loading&&e.data===void 0?d`<${rd} what=${t} />`:n(e.data)}function dn({open:e,title:t,children:n,confirmLabel:o,onConfirm:l,onCancel:a}){let r=jt(null);return gt(()=>{let i=r.current;i&&(e&&!i.open&&i.showModal(),!e&&i.open&&i.close())},[e]),d`<dialog ref=${r} aria-labelledby="confirm-title" onCancel=${i=>{i.preventDefault(),a()}}>
    <h2 id="confirm-title">${t}</h2>
    <div>${n}</div>
    <div class="actions">
      <button type="button" onClick=${a}>Cancel</button>
      <button type="button" class="primary" onClick=${l}>${o}</button>
    </div>
  </dialog>`}function ut({value:e,summary:t}){return d`<details class="json">
    <summary>${t??"JSON"}</summary>
    <pre tabindex="0">${JSON.stringify(e,null,2)}</pre>
  </details>`}function Me({value:e}){return e?/^[0-9a-f]{64}$/.test(e)?d`<code title=${e}>${e.slice(0,12)}</code>`:d`<code>${e}</code>`:d`<span class="muted">none</span>`}var cs=new Intl.NumberFormat("pt-BR",{style:"currency",currency:"BRL"});function at(e){return e==null?"—":cs.format(e/100)}function Ce(e){return e==null?"—":cs.format(Number(e))}function mr(e){return e==null?"—":`${e>0?"+":""}${at(e)}`}function Zn(e){return e==null||Number.isNaN(e)?"—":`${(e*100).toFixed(1)} %`}function X(e){if(!e)return"—";let t=new Date(e);return Number.isNaN(t.getTime())?e:t.toLocaleString()}var De=["policy","provider","economics"];function ds(){let e=te(()=>Gt("/stores",{},a=>a.code),[]),[t,n]=I(""),[o,l]=I("");return d`<h1>Stores</h1>
    <form class="filters" role="search" aria-label="Filter stores" onSubmit=${a=>a.preventDefault()}>
      <label>Find a store <input type="search" value=${t} onInput=${a=>n(a.target.value)} placeholder="code, name or merchant" /></label>
      <label>Mode
        <select value=${o} onChange=${a=>l(a.target.value)}>
          <option value="">any</option><option value="SHADOW">SHADOW</option><option value="LIVE">LIVE</option>
        </select>
      </label>
    </form>
    <${le} state=${e} what="the stores">${a=>{let r=t.trim().toLowerCase(),i=a.filter(u=>(!o||u.mode===o)&&(!r||[u.code,u.name,u.merchant].some(h=>String(h).toLowerCase().includes(r))));return d`<div class="scroll"><table>
        <caption>${i.length} of ${a.length} stores</caption>
        <thead><tr><th scope="col">Store</th><th scope="col">Name</th><th scope="col">Merchant</th><th scope="col">Mode</th>
          ${De.map(u=>d`<th scope="col">${u}</th>`)}</tr></thead>
        <tbody>${i.map(u=>d`<tr>
            <th scope="row"><a href=${`#/stores/${encodeURIComponent(u.code)}`}>${u.code}</a></th>
            <td>${u.name}</td><td>${u.merchant}</td><td><span class=${`badge ${u.mode}`}>${u.mode}</span></td>
            ${De.map(h=>d`<td><${Me} value=${u.components?.[h]} /></td>`)}
          </tr>`)}</tbody>
      </table></div>`}}<//>`}async function ad(e){let t=`/stores/${encodeURIComponent(e)}`,[n,o,...l]=await Promise.all([q(t),q(`${t}/components`),...De.map(a=>q(`/components/${a}`))]);return{store:n,components:o,versions:Object.fromEntries(De.map((a,r)=>[a,l[r]]))}}function us({code:e,me:t}){let n=te(()=>ad(e),[e]),o=ge(),[l,a]=I(null),r=`/stores/${encodeURIComponent(e)}`;async function i(){let u=l;a(null),await o.run(u.run)!==void 0&&n.reload()}return d`<h1>Store <code>${e}</code></h1>
    <p><a href="#/stores">All stores</a>${xe(t,"tester")?d` · <a href=${`#/evaluate/${encodeURIComponent(e)}`}>Evaluate a charge on this store</a>`:null}</p>
    <${se} error=${o.error} />
    ${o.busy?d`<p role="status">Working…</p>`:null}
    <${le} state=${n} what="the store">${({store:u,components:h,versions:m})=>d`
      <section aria-labelledby="store-facts">
        <h2 id="store-facts">Facts</h2>
        <dl class="facts">
          <dt>Name</dt><dd>${u.name}</dd>
          <dt>Merchant</dt><dd>${u.merchant}</dd>
          <dt>Mode</dt><dd><span class=${`badge ${u.mode}`}>${u.mode}</span></dd>
          <dt>Gateways</dt><dd>${u.gateways?.length?u.gateways.join(", "):"every active gateway"}</dd>
          <dt>Kill switch</dt><dd>${sd(h.killSwitch)}</dd>
        </dl>
      </section>
      <section aria-labelledby="store-steps">
        <h2 id="store-steps">Components per step</h2>
        <div class="steps">
          ${De.map(f=>d`<${id}
            key=${f} step=${f} view=${h.steps[f]} versions=${m[f]} me=${t}
            onActivate=${g=>a({title:`Activate ${f} ${g==="bundled"?"bundled":g.slice(0,12)}?`,body:`Every new charge of ${e} will run this ${f} version. Charges in flight finish on the version they started with.`,label:"Activate",run:()=>xo(`${r}/components/${f}`,{version:g})})}
            onRollback=${()=>a({title:`Roll back ${f}?`,body:`The ${f} step of ${e} goes back to ${h.steps[f].previous}.`,label:"Roll back",run:()=>At(`${r}/components/${f}/rollback`)})}
            onCanary=${g=>o.run(()=>xo(`${r}/components/${f}/canary`,g)).then(b=>b!==void 0&&n.reload())}
            onPromote=${()=>a({title:`Promote the ${f} canary?`,body:`Every new charge of ${e} will run ${h.steps[f].canary.version.slice(0,12)} for ${f}; the canary ends.`,label:"Promote",run:()=>At(`${r}/components/${f}/canary/promote`)})}
            onEndCanary=${()=>o.run(()=>Co(`${r}/components/${f}/canary`)).then(g=>g!==void 0&&n.reload())}
            store=${e}
            onCandidate=${g=>o.run(()=>g?xo(`${r}/components/${f}/candidate`,{version:g}):Co(`${r}/components/${f}/candidate`)).then(b=>b!==void 0&&n.reload())}
          />`)}
        </div>
      </section>
      ${xe(t,"operator")?d`<${ud} value=${h.killSwitch} onSave=${f=>o.run(()=>xo(`${r}/kill-switch`,f)).then(g=>g!==void 0&&n.reload())} />`:null}
      <section aria-labelledby="store-history">
        <h2 id="store-history">Activation history</h2>
        ${h.history.length===0?d`<p class="muted">Nothing was activated on this store yet.</p>`:d`<div class="scroll"><table>
              <thead><tr><th scope="col">When</th><th scope="col">Step</th><th scope="col">Action</th><th scope="col">Version</th><th scope="col">Before</th><th scope="col">Why</th></tr></thead>
              <tbody>${h.history.map(f=>d`<tr>
                <td>${X(f.at)}</td><td>${f.step}</td><td>${f.action}</td>
                <td><${Me} value=${f.version} /></td><td><${Me} value=${f.previousVersion} /></td><td>${f.reason??""}</td>
              </tr>`)}</tbody>
            </table></div>`}
      </section>`}<//>
    <${dn} open=${!!l} title=${l?.title} confirmLabel=${l?.label??"Confirm"}
      onConfirm=${i} onCancel=${()=>a(null)}>${l?.body}<//>`}function sd(e){return e?e.enabled?`armed: rolls back at ${e.errorRatePercent} % failed calls over ${e.windowSeconds} s (at least ${e.minCalls} calls)`:"off":"unknown"}function id({step:e,view:t,versions:n,me:o,store:l,onActivate:a,onRollback:r,onCandidate:i,onCanary:u,onPromote:h,onEndCanary:m}){let f=["bundled",...n.map(A=>A.version)],g=Object.fromEntries(n.map(A=>[A.version,A.source])),b=A=>A==="bundled"?"bundled":`${A.slice(0,12)} (${g[A]})`,[S,x]=I(f.find(A=>A!==t.active)??t.active),[v,D]=I(f.find(A=>A!==t.active)??""),w=`step-${e}`;return d`<article class="card" aria-labelledby=${w}>
    <h3 id=${w}>${e}</h3>
    <dl class="facts">
      <dt>Active</dt><dd><${Me} value=${t.active} /></dd>
      <dt>Since</dt><dd>${X(t.activatedAt)}</dd>
      <dt>Previous</dt><dd><${Me} value=${t.previous} /></dd>
      <dt>Candidate</dt><dd><${Me} value=${t.candidate} /></dd>
      <dt>Canary</dt><dd>${t.canary?d`<${Me} value=${t.canary.version} /> on ${t.canary.percent} % of charges`:d`<span class="muted">none</span>`}</dd>
    </dl>
    ${t.canary?d`<${dd} store=${l} step=${e} />`:null}
    ${xe(o,"operator")?d`<div class="row">
      <label>Version to activate
        <select value=${S} onChange=${A=>x(A.target.value)}>
          ${f.map(A=>d`<option value=${A}>${b(A)}${A===t.active?", active":""}</option>`)}
        </select>
      </label>
      <button type="button" class="primary" disabled=${S===t.active} onClick=${()=>a(S)}>Activate ${e}</button>
      ${t.previous?d`<button type="button" onClick=${r}>Roll back ${e}</button>`:null}
    </div>`:null}
    ${xe(o,"tester")?d`<div class="row">
      ${t.candidate?d`<button type="button" onClick=${()=>i(null)}>Clear ${e} candidate</button>
            <a href=${`#/shadow/${encodeURIComponent(l)}/${e}`}>See the comparison</a>`:d`<label>Shadow candidate
            <select value=${v} onChange=${A=>D(A.target.value)}>
              ${f.map(A=>d`<option value=${A}>${b(A)}</option>`)}
            </select>
          </label>
          <button type="button" onClick=${()=>i(v)}>Set ${e} candidate</button>`}
    </div>`:null}
    ${xe(o,"operator")?t.canary?d`<div class="row">
          <button type="button" class="primary" onClick=${h}>Promote ${e} canary</button>
          <button type="button" onClick=${m}>End ${e} canary</button>
        </div>`:d`<${cd} step=${e} choices=${f.filter(A=>A!==t.active)} label=${b} onStart=${u} />`:null}
  </article>`}function cd({step:e,choices:t,label:n,onStart:o}){let[l,a]=I(t[0]??""),[r,i]=I(5);return t.length===0?null:d`<form class="row" aria-label=${`Start a ${e} canary`} onSubmit=${u=>{u.preventDefault(),o({version:l,percent:Number(r)})}}>
    <label>Canary version
      <select value=${l} onChange=${u=>a(u.target.value)}>
        ${t.map(u=>d`<option value=${u}>${n(u)}</option>`)}
      </select>
    </label>
    <label>Share (%) <input type="number" min="0.1" max="100" step="0.1" value=${r} onInput=${u=>i(u.target.value)} /></label>
    <button type="submit">Start ${e} canary</button>
  </form>`}function dd({store:e,step:t}){let n=te(()=>q(`/stores/${encodeURIComponent(e)}/components/${t}/canary`),[e,t]);return d`<${le} state=${n} what="the canary">${o=>d`
    <dl class="facts" aria-label=${`${t} canary figures`}>
      <dt>Share so far</dt><dd>${o.sharePercent} % (${o.total.calls} calls)</dd>
      <dt>Errors</dt><dd>${o.total.errors} (${o.total.errorRatePercent} %; ends at ${o.maxErrorRatePercent} % over ${o.windowSeconds} s)</dd>
      <dt>Changed</dt><dd>${o.total.changed} (${o.total.changedRatePercent} %${o.maxChangedRatePercent?`; ends at ${o.maxChangedRatePercent} %`:""})</dd>
    </dl>`}<//>`}function ud({value:e,onSave:t}){let[n,o]=I({...e}),l=a=>r=>o({...n,[a]:r.target.type==="checkbox"?r.target.checked:Number(r.target.value)});return d`<section aria-labelledby="kill-switch">
    <h2 id="kill-switch">Kill switch</h2>
    <form class="row" onSubmit=${a=>{a.preventDefault(),t({enabled:n.enabled,errorRatePercent:n.errorRatePercent,windowSeconds:n.windowSeconds,minCalls:n.minCalls})}}>
      <label><input type="checkbox" checked=${n.enabled} onChange=${l("enabled")} /> Armed</label>
      <label>Error rate (%) <input type="number" min="1" max="100" value=${n.errorRatePercent} onInput=${l("errorRatePercent")} /></label>
      <label>Window (s) <input type="number" min="10" max="86400" value=${n.windowSeconds} onInput=${l("windowSeconds")} /></label>
      <label>Minimum calls <input type="number" min="1" max="1000000" value=${n.minCalls} onInput=${l("minCalls")} /></label>
      <button type="submit">Save the kill switch</button>
    </form>
  </section>`}function fs({me:e}){let t=te(async()=>{let a=await Promise.all(De.map(r=>q(`/components/${r}`)));return Object.fromEntries(De.map((r,i)=>[r,a[i]]))},[]),n=ge(),[o,l]=I(null);return d`<h1>Components</h1>
    ${xe(e,"operator")?d`<${fd} onUploaded=${t.reload} />`:null}
    <${se} error=${n.error} />
    <${le} state=${t} what="the components">${a=>De.map(r=>d`
      <section aria-labelledby=${`versions-${r}`}>
        <h2 id=${`versions-${r}`}>${r}</h2>
        <div class="scroll"><table>
          <thead><tr><th scope="col">Version</th><th scope="col">Label</th><th scope="col">Source</th><th scope="col">Size</th><th scope="col">Uploaded</th><th scope="col">In use</th>
            ${xe(e,"operator")?d`<th scope="col"><span class="visually-hidden">Actions</span></th>`:null}</tr></thead>
          <tbody>${a[r].map(i=>d`<tr>
            <th scope="row"><${Me} value=${i.version} /></th>
            <td>${i.label??d`<span class="muted">none</span>`}</td>
            <td>${i.source}</td>
            <td>${(i.sizeBytes/1024).toFixed(1)} KiB</td>
            <td>${X(i.createdAt)}</td>
            <td>${i.inUse.length?i.inUse.map(u=>`${u.store} (${u.role})`).join(", "):d`<span class="muted">no store</span>`}</td>
            ${xe(e,"operator")?d`<td>${i.source!=="bundled"&&i.inUse.length===0?d`<button type="button" onClick=${()=>l(i)} aria-label=${`Delete ${r} version ${i.version.slice(0,12)}`}>Delete</button>`:null}</td>`:null}
          </tr>`)}</tbody>
        </table></div>
      </section>`)}<//>
    <${dn} open=${!!o} title="Delete this version?" confirmLabel="Delete"
      onCancel=${()=>l(null)}
      onConfirm=${async()=>{let a=o;l(null),await n.run(()=>Co(`/components/${a.step}/${a.version}`))!==void 0&&t.reload()}}>${o?d`The ${o.step} version <code>${o.version}</code> will be gone for good.`:null}<//>`}function fd({onUploaded:e}){let t=jt(null),[n,o]=I("provider"),[l,a]=I(""),r=ge();function i(){let h=t.current.files[0];h&&!l&&a(h.name.replace(/\.wasm$/i,""))}async function u(h){h.preventDefault();let m=t.current.files[0];if(!m)return;let f=l?`?label=${encodeURIComponent(l)}`:"";await r.run(()=>Qt("POST",`/components/${n}${f}`,{body:m,contentType:"application/wasm"}))&&(t.current.value="",a(""),e())}return d`<section aria-labelledby="upload-title">
    <h2 id="upload-title">Upload a component</h2>
    <form class="row" onSubmit=${u}>
      <label>Step
        <select value=${n} onChange=${h=>o(h.target.value)}>
          ${De.map(h=>d`<option value=${h}>${h}</option>`)}
        </select>
      </label>
      <label>Component file (.wasm) <input type="file" ref=${t} onChange=${i} accept=".wasm,application/wasm" required /></label>
      <label>Label <input value=${l} onInput=${h=>a(h.target.value)} maxLength="100" placeholder="the file's name" /></label>
      <button type="submit" class="primary" disabled=${r.busy}>Upload</button>
    </form>
    <${se} error=${r.error} />
    ${r.result?d`<p role="status">Uploaded ${r.result.step} version <code>${r.result.version}</code>${r.result.label?` (${r.result.label})`:""}.</p>`:null}
  </section>`}var pd="uplot",hd="u-hz",md="u-vt",$d="u-title",gd="u-wrap",bd="u-under",yd="u-over",_d="u-axis",An="u-off",vd="u-select",wd="u-cursor-x",Sd="u-cursor-y",kd="u-cursor-pt",xd="u-legend",Cd="u-live",Ad="u-inline",Ed="u-series",Pd="u-marker",ps="u-label",Td="u-value",Eo="width",Po="height";var hs="bottom",Xn="left",$r="right",Rr="#000",ms=Rr+"0",gr="mousemove",$s="mousedown",br="mouseup",gs="mouseenter",bs="mouseleave",ys="dblclick",Dd="resize",Id="scroll",_s="change",sl="dppxchange",Lr="--",ao=typeof window<"u",Sr=ao?document:null,to=ao?window:null,Rd=ao?navigator:null,fe,ol;function kr(){let e=devicePixelRatio;fe!=e&&(fe=e,ol&&Cr(_s,ol,kr),ol=matchMedia(`(min-resolution: ${fe-.001}dppx) and (max-resolution: ${fe+.001}dppx)`),En(_s,ol,kr),to.dispatchEvent(new CustomEvent(sl)))}function bt(e,t){if(t!=null){let n=e.classList;!n.contains(t)&&n.add(t)}}function xr(e,t){let n=e.classList;n.contains(t)&&n.remove(t)}function Ae(e,t,n){e.style[t]=n+"px"}function Mt(e,t,n,o){let l=Sr.createElement(e);return t!=null&&bt(l,t),n?.insertBefore(l,o),l}function Et(e,t){return Mt("div",e,t)}var vs=new WeakMap;function qt(e,t,n,o,l){let a="translate("+t+"px,"+n+"px)",r=vs.get(e);a!=r&&(e.style.transform=a,vs.set(e,a),t<0||n<0||t>o||n>l?bt(e,An):xr(e,An))}var ws=new WeakMap;function Ss(e,t,n){let o=t+n,l=ws.get(e);o!=l&&(ws.set(e,o),e.style.background=t,e.style.borderColor=n)}var ks=new WeakMap;function xs(e,t,n,o){let l=t+""+n,a=ks.get(e);l!=a&&(ks.set(e,l),e.style.height=n+"px",e.style.width=t+"px",e.style.marginLeft=o?-t/2+"px":0,e.style.marginTop=o?-n/2+"px":0)}var Mr={passive:!0},Ld={...Mr,capture:!0};function En(e,t,n,o){t.addEventListener(e,n,o?Ld:Mr)}function Cr(e,t,n,o){t.removeEventListener(e,n,Mr)}ao&&kr();function Nt(e,t,n,o){let l;n=n||0,o=o||t.length-1;let a=o<=2147483647;for(;o-n>1;)l=a?n+o>>1:yt((n+o)/2),t[l]<e?n=l:o=l;return e-t[n]<=t[o]-e?n:o}function Xs(e){return(n,o,l)=>{let a=-1,r=-1;for(let i=o;i<=l;i++)if(e(n[i])){a=i;break}for(let i=l;i>=o;i--)if(e(n[i])){r=i;break}return[a,r]}}var ei=e=>e!=null,ti=e=>e!=null&&e>0,dl=Xs(ei),Md=Xs(ti);function Nd(e,t,n,o=0,l=!1){let a=l?Md:dl,r=l?ti:ei;[t,n]=a(e,t,n);let i=e[t],u=e[t];if(t>-1)if(o==1)i=e[t],u=e[n];else if(o==-1)i=e[n],u=e[t];else for(let h=t;h<=n;h++){let m=e[h];r(m)&&(m<i?i=m:m>u&&(u=m))}return[i??be,u??-be]}function ul(e,t,n,o){let l=Es(e),a=Es(t);e==t&&(l==-1?(e*=n,t/=n):(e/=n,t*=n));let r=n==10?Zt:ni,i=l==1?yt:Pt,u=a==1?Pt:yt,h=i(r(We(e))),m=u(r(We(t))),f=no(n,h),g=no(n,m);return n==10&&(h<0&&(f=ye(f,-h)),m<0&&(g=ye(g,-m))),o||n==2?(e=f*l,t=g*a):(e=ai(e,f),t=fl(t,g)),[e,t]}function Nr(e,t,n,o){let l=ul(e,t,n,o);return e==0&&(l[0]=0),t==0&&(l[1]=0),l}var Or=.1,Cs={mode:3,pad:Or},Do={pad:0,soft:null,mode:0},Od={min:Do,max:Do};function il(e,t,n,o){return pl(n)?As(e,t,n):(Do.pad=n,Do.soft=o?0:null,Do.mode=o?3:0,As(e,t,Od))}function de(e,t){return e??t}function Fd(e,t,n){for(t=de(t,0),n=de(n,e.length-1);t<=n;){if(e[t]!=null)return!0;t++}return!1}function As(e,t,n){let o=n.min,l=n.max,a=de(o.pad,0),r=de(l.pad,0),i=de(o.hard,-be),u=de(l.hard,be),h=de(o.soft,be),m=de(l.soft,-be),f=de(o.mode,0),g=de(l.mode,0),b=t-e,S=Zt(b),x=st(We(e),We(t)),v=Zt(x),D=We(v-S);(b<1e-24||D>10)&&(b=0,(e==0||t==0)&&(b=1e-24,f==2&&h!=be&&(a=0),g==2&&m!=-be&&(r=0)));let w=b||x||1e3,A=Zt(w),C=no(10,yt(A)),J=w*(b==0?e==0?.1:1:a),O=ye(ai(e-J,C/10),24),Q=e>=h&&(f==1||f==3&&O<=h||f==2&&O>=h)?h:be,B=st(i,O<Q&&e>=Q?Q:Ot(Q,O)),ee=w*(b==0?t==0?.1:1:r),W=ye(fl(t+ee,C/10),24),T=t<=m&&(g==1||g==3&&W>=m||g==2&&W<=m)?m:-be,j=Ot(u,W>T&&t<=T?T:st(T,W));return B==j&&B==0&&(j=100),[B,j]}var Ud=new Intl.NumberFormat(ao?Rd.language:"en-US"),Fr=e=>Ud.format(e),_t=Math,al=_t.PI,We=_t.abs,yt=_t.floor,ze=_t.round,Pt=_t.ceil,Ot=_t.min,st=_t.max,no=_t.pow,Es=_t.sign,Zt=_t.log10,ni=_t.log2,Vd=(e,t=1)=>_t.sinh(e)*t,yr=(e,t=1)=>_t.asinh(e/t),be=1/0;function Ps(e){return(Zt((e^e>>31)-(e>>31))|0)+1}function Ar(e,t,n){return Ot(st(e,t),n)}function oi(e){return typeof e=="function"}function re(e){return oi(e)?e:()=>e}var Hd=()=>{},li=e=>e,ri=(e,t)=>t,zd=e=>null,Ts=e=>!0,Ds=(e,t)=>e==t,Wd=/\.\d*?(?=9{6,}|0{6,})/gm,Pn=e=>{if(ii(e)||fn.has(e))return e;let t=`${e}`,n=t.match(Wd);if(n==null)return e;let o=n[0].length-1;if(t.indexOf("e-")!=-1){let[l,a]=t.split("e");return+`${Pn(l)}e${a}`}return ye(e,o)};function xn(e,t){return Pn(ye(Pn(e/t))*t)}function fl(e,t){return Pn(Pt(Pn(e/t))*t)}function ai(e,t){return Pn(yt(Pn(e/t))*t)}function ye(e,t=0){if(ii(e))return e;let n=10**t,o=e*n*(1+Number.EPSILON);return ze(o)/n}var fn=new Map;function si(e){return((""+e).split(".")[1]||"").length}function Ro(e,t,n,o){let l=[],a=o.map(si);for(let r=t;r<n;r++){let i=We(r),u=ye(no(e,r),i);for(let h=0;h<o.length;h++){let m=e==10?+`${o[h]}e${r}`:o[h]*u,f=(r>=0?0:i)+(r>=a[h]?0:a[h]),g=e==10?m:ye(m,f);l.push(g),fn.set(g,f)}}return l}var Io={},Ur=[],oo=[null,null],un=Array.isArray,ii=Number.isInteger,Bd=e=>e===void 0;function Is(e){return typeof e=="string"}function pl(e){let t=!1;if(e!=null){let n=e.constructor;t=n==null||n==Object}return t}function jd(e){return e!=null&&typeof e=="object"}var Gd=Object.getPrototypeOf(Uint8Array),ci="__proto__";function lo(e,t=pl){let n;if(un(e)){let o=e.find(l=>l!=null);if(un(o)||t(o)){n=Array(e.length);for(let l=0;l<e.length;l++)n[l]=lo(e[l],t)}else n=e.slice()}else if(e instanceof Gd)n=e.slice();else if(t(e)){n={};for(let o in e)o!=ci&&(n[o]=lo(e[o],t))}else n=e;return n}function Fe(e){let t=arguments;for(let n=1;n<t.length;n++){let o=t[n];for(let l in o)l!=ci&&(pl(e[l])?Fe(e[l],lo(o[l])):e[l]=lo(o[l]))}return e}var qd=0,Yd=1,Kd=2;function Jd(e,t,n){for(let o=0,l,a=-1;o<t.length;o++){let r=t[o];if(r>a){for(l=r-1;l>=0&&e[l]==null;)e[l--]=null;for(l=r+1;l<n&&e[l]==null;)e[a=l++]=null}}}function Qd(e,t){if(eu(e)){let r=e[0].slice();for(let i=1;i<e.length;i++)r.push(...e[i].slice(1));return tu(r[0])||(r=Xd(r)),r}let n=new Set;for(let r=0;r<e.length;r++){let u=e[r][0],h=u.length;for(let m=0;m<h;m++)n.add(u[m])}let o=[Array.from(n).sort((r,i)=>r-i)],l=o[0].length,a=new Map;for(let r=0;r<l;r++)a.set(o[0][r],r);for(let r=0;r<e.length;r++){let i=e[r],u=i[0];for(let h=1;h<i.length;h++){let m=i[h],f=Array(l).fill(void 0),g=t?t[r][h]:Yd,b=[];for(let S=0;S<m.length;S++){let x=m[S],v=a.get(u[S]);x===null?g!=qd&&(f[v]=x,g==Kd&&b.push(v)):f[v]=x}Jd(f,b,l),o.push(f)}}return o}var Zd=typeof queueMicrotask>"u"?e=>Promise.resolve().then(e):queueMicrotask;function Xd(e){let t=e[0],n=t.length,o=Array(n);for(let a=0;a<o.length;a++)o[a]=a;o.sort((a,r)=>t[a]-t[r]);let l=[];for(let a=0;a<e.length;a++){let r=e[a],i=Array(n);for(let u=0;u<n;u++)i[u]=r[o[u]];l.push(i)}return l}function eu(e){let t=e[0][0],n=t.length;for(let o=1;o<e.length;o++){let l=e[o][0];if(l.length!=n)return!1;if(l!=t){for(let a=0;a<n;a++)if(l[a]!=t[a])return!1}}return!0}function tu(e,t=100){let n=e.length;if(n<=1)return!0;let o=0,l=n-1;for(;o<=l&&e[o]==null;)o++;for(;l>=o&&e[l]==null;)l--;if(l<=o)return!0;let a=st(1,yt((l-o+1)/t));for(let r=e[o],i=o+a;i<=l;i+=a){let u=e[i];if(u!=null){if(u<=r)return!1;r=u}}return!0}var di=["January","February","March","April","May","June","July","August","September","October","November","December"],ui=["Sunday","Monday","Tuesday","Wednesday","Thursday","Friday","Saturday"];function fi(e){return e.slice(0,3)}var nu=ui.map(fi),ou=di.map(fi),lu={MMMM:di,MMM:ou,WWWW:ui,WWW:nu};function Ao(e){return(e<10?"0":"")+e}function ru(e){return(e<10?"00":e<100?"0":"")+e}var au={YYYY:e=>e.getFullYear(),YY:e=>(e.getFullYear()+"").slice(2),MMMM:(e,t)=>t.MMMM[e.getMonth()],MMM:(e,t)=>t.MMM[e.getMonth()],MM:e=>Ao(e.getMonth()+1),M:e=>e.getMonth()+1,DD:e=>Ao(e.getDate()),D:e=>e.getDate(),WWWW:(e,t)=>t.WWWW[e.getDay()],WWW:(e,t)=>t.WWW[e.getDay()],HH:e=>Ao(e.getHours()),H:e=>e.getHours(),h:e=>{let t=e.getHours();return t==0?12:t>12?t-12:t},AA:e=>e.getHours()>=12?"PM":"AM",aa:e=>e.getHours()>=12?"pm":"am",a:e=>e.getHours()>=12?"p":"a",mm:e=>Ao(e.getMinutes()),m:e=>e.getMinutes(),ss:e=>Ao(e.getSeconds()),s:e=>e.getSeconds(),fff:e=>ru(e.getMilliseconds())};function Vr(e,t){t=t||lu;let n=[],o=/\{([a-z]+)\}|[^{]+/gi,l;for(;l=o.exec(e);)n.push(l[0][0]=="{"?au[l[1]]:l[0]);return a=>{let r="";for(let i=0;i<n.length;i++)r+=typeof n[i]=="string"?n[i]:n[i](a,t);return r}}var su=new Intl.DateTimeFormat().resolvedOptions().timeZone;function iu(e,t){let n;return t=="UTC"||t=="Etc/UTC"?n=new Date(+e+e.getTimezoneOffset()*6e4):t==su?n=e:(n=new Date(e.toLocaleString("en-US",{timeZone:t})),n.setMilliseconds(e.getMilliseconds())),n}var pi=e=>e%1==0,cl=[1,2,2.5,5],cu=Ro(10,-32,0,cl),hi=Ro(10,0,32,cl),du=hi.filter(pi),Cn=cu.concat(hi),Hr=`
`,mi="{YYYY}",Rs=Hr+mi,$i="{M}/{D}",To=Hr+$i,ll=To+"/{YY}",gi="{aa}",uu="{h}:{mm}",eo=uu+gi,Ls=Hr+eo,Ms=":{ss}",he=null;function bi(e){let t=e*1e3,n=t*60,o=n*60,l=o*24,a=l*30,r=l*365,u=(e==1?Ro(10,0,3,cl).filter(pi):Ro(10,-3,0,cl)).concat([t,t*5,t*10,t*15,t*30,n,n*5,n*10,n*15,n*30,o,o*2,o*3,o*4,o*6,o*8,o*12,l,l*2,l*3,l*4,l*5,l*6,l*7,l*8,l*9,l*10,l*15,a,a*2,a*3,a*4,a*6,r,r*2,r*5,r*10,r*25,r*50,r*100]),h=[[r,mi,he,he,he,he,he,he,1],[l*28,"{MMM}",Rs,he,he,he,he,he,1],[l,$i,Rs,he,he,he,he,he,1],[o,"{h}"+gi,ll,he,To,he,he,he,1],[n,eo,ll,he,To,he,he,he,1],[t,Ms,ll+" "+eo,he,To+" "+eo,he,Ls,he,1],[e,Ms+".{fff}",ll+" "+eo,he,To+" "+eo,he,Ls,he,1]];function m(f){return(g,b,S,x,v,D)=>{let w=[],A=v>=r,C=v>=a&&v<r,J=f(S),O=ye(J*e,3),Q=_r(J.getFullYear(),A?0:J.getMonth(),C||A?1:J.getDate()),B=ye(Q*e,3);if(C||A){let ee=C?v/a:0,W=A?v/r:0,T=O==B?O:ye(_r(Q.getFullYear()+W,Q.getMonth()+ee,1)*e,3),j=new Date(ze(T/e)),L=j.getFullYear(),Y=j.getMonth();for(let z=0;T<=x;z++){let ae=_r(L+W*z,Y+ee*z,1),H=ae-f(ye(ae*e,3));T=ye((+ae+H)*e,3),T<=x&&w.push(T)}}else{let ee=v>=l?l:v,W=yt(S)-yt(O),T=B+W+fl(O-B,ee);w.push(T);let j=f(T),L=j.getHours()+j.getMinutes()/n+j.getSeconds()/o,Y=v/o,z=g.axes[b]._space,ae=D/z;for(;T=ye(T+v,e==1?0:3),!(T>x);)if(Y>1){let H=yt(ye(L+Y,6))%24,ie=f(T).getHours()-H;ie>1&&(ie=-1),T-=ie*o,L=(L+Y)%24;let me=w[w.length-1];ye((T-me)/v,3)*ae>=.7&&w.push(T)}else w.push(T)}return w}}return[u,h,m]}var[fu,pu,hu]=bi(1),[mu,$u,gu]=bi(.001);Ro(2,-53,53,[1]);function Ns(e,t){return e.map(n=>n.map((o,l)=>l==0||l==8||o==null?o:t(l==1||n[8]==0?o:n[1]+o)))}function Os(e,t){return(n,o,l,a,r)=>{let i=t.find(S=>r>=S[0])||t[t.length-1],u,h,m,f,g,b;return o.map(S=>{let x=e(S),v=x.getFullYear(),D=x.getMonth(),w=x.getDate(),A=x.getHours(),C=x.getMinutes(),J=x.getSeconds(),O=v!=u&&i[2]||D!=h&&i[3]||w!=m&&i[4]||A!=f&&i[5]||C!=g&&i[6]||J!=b&&i[7]||i[1];return u=v,h=D,m=w,f=A,g=C,b=J,O(x)})}}function bu(e,t){let n=Vr(t);return(o,l,a,r,i)=>l.map(u=>n(e(u)))}function _r(e,t,n){return new Date(e,t,n)}function Fs(e,t){return t(e)}var yu="{YYYY}-{MM}-{DD} {h}:{mm}{aa}";function Us(e,t){return(n,o,l,a)=>a==null?Lr:t(e(o))}function _u(e,t){let n=e.series[t];return n.width?n.stroke(e,t):n.points.width?n.points.stroke(e,t):null}function vu(e,t){return e.series[t].fill(e,t)}var wu={show:!0,live:!0,isolate:!1,mount:Hd,markers:{show:!0,width:2,stroke:_u,fill:vu,dash:"solid"},idx:null,idxs:null,values:[]};function Su(e,t){let n=e.cursor.points,o=Et(),l=n.size(e,t);Ae(o,Eo,l),Ae(o,Po,l);let a=l/-2;Ae(o,"marginLeft",a),Ae(o,"marginTop",a);let r=n.width(e,t,l);return r&&Ae(o,"borderWidth",r),o}function ku(e,t){let n=e.series[t].points;return n._fill||n._stroke}function xu(e,t){let n=e.series[t].points;return n._stroke||n._fill}function Cu(e,t){return e.series[t].points.size}var vr=[0,0];function Au(e,t,n){return vr[0]=t,vr[1]=n,vr}function rl(e,t,n,o=!0){return l=>{l.button==0&&(!o||l.target==t)&&n(l)}}function wr(e,t,n,o=!0){return l=>{(!o||l.target==t)&&n(l)}}var Eu={show:!0,x:!0,y:!0,lock:!1,move:Au,points:{one:!1,show:Su,size:Cu,width:0,stroke:xu,fill:ku},bind:{mousedown:rl,mouseup:rl,click:rl,dblclick:rl,mousemove:wr,mouseleave:wr,mouseenter:wr},drag:{setScale:!0,x:!0,y:!1,dist:0,uni:null,click:(e,t)=>{t.stopPropagation(),t.stopImmediatePropagation()},_x:!1,_y:!1},focus:{dist:(e,t,n,o,l)=>o-l,prox:-1,bias:0},hover:{skip:[void 0],prox:null,bias:0},left:-10,top:-10,idx:null,dataIdx:null,idxs:null,event:null},yi={show:!0,stroke:"rgba(0,0,0,0.07)",width:2},zr=Fe({},yi,{filter:ri}),_i=Fe({},zr,{size:10}),vi=Fe({},yi,{show:!1}),Wr='12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif, "Apple Color Emoji", "Segoe UI Emoji", "Segoe UI Symbol", "Noto Color Emoji"',wi="bold "+Wr,Si=1.5,Vs={show:!0,scale:"x",stroke:Rr,space:50,gap:5,alignTo:1,size:50,labelGap:0,labelSize:30,labelFont:wi,side:2,grid:zr,ticks:_i,border:vi,font:Wr,lineGap:Si,rotate:0},Pu="Value",Tu="Time",Hs={show:!0,scale:"x",auto:!1,sorted:1,min:be,max:-be,idxs:[]};function Du(e,t,n,o,l){return t.map(a=>a==null?"":Fr(a))}function Iu(e,t,n,o,l,a,r){let i=[],u=fn.get(l)||0;n=r?n:ye(fl(n,l),u);for(let h=n;h<=o;h=ye(h+l,u))i.push(Object.is(h,-0)?0:h);return i}function Er(e,t,n,o,l,a,r){let i=[],u=e.scales[e.axes[t].scale].log,h=u==10?Zt:ni,m=yt(h(n));l=no(u,m),u==10&&(l=Cn[Nt(l,Cn)]);let f=n,g=l*u;u==10&&(g=Cn[Nt(g,Cn)]);do i.push(f),f=f+l,u==10&&!fn.has(f)&&(f=ye(f,fn.get(l))),f>=g&&(l=f,g=l*u,u==10&&(g=Cn[Nt(g,Cn)]));while(f<=o);return i}function Ru(e,t,n,o,l,a,r){let u=e.scales[e.axes[t].scale].asinh,h=o>u?Er(e,t,st(u,n),o,l):[u],m=o>=0&&n<=0?[0]:[];return(n<-u?Er(e,t,st(u,-o),-n,l):[u]).reverse().map(g=>-g).concat(m,h)}var ki=/./,Lu=/[12357]/,Mu=/[125]/,zs=/1/,Pr=(e,t,n,o)=>e.map((l,a)=>t==4&&l==0||a%o==0&&n.test(l.toExponential()[l<0?1:0])?l:null);function Nu(e,t,n,o,l){let a=e.axes[n],r=a.scale,i=e.scales[r],u=e.valToPos,h=a._space,m=u(10,r),f=u(9,r)-m>=h?ki:u(7,r)-m>=h?Lu:u(5,r)-m>=h?Mu:zs;if(f==zs){let g=We(u(1,r)-m);if(g<h)return Pr(t.slice().reverse(),i.distr,f,Pt(h/g)).reverse()}return Pr(t,i.distr,f,1)}function Ou(e,t,n,o,l){let a=e.axes[n],r=a.scale,i=a._space,u=e.valToPos,h=We(u(1,r)-u(2,r));return h<i?Pr(t.slice().reverse(),3,ki,Pt(i/h)).reverse():t}function Fu(e,t,n,o){return o==null?Lr:t==null?"":Fr(t)}var Ws={show:!0,scale:"y",stroke:Rr,space:30,gap:5,alignTo:1,size:50,labelGap:0,labelSize:30,labelFont:wi,side:3,grid:zr,ticks:_i,border:vi,font:Wr,lineGap:Si,rotate:0};function Uu(e,t){let n=3+(e||1)*2;return ye(n*t,3)}function Vu(e,t){let{scale:n,idxs:o}=e.series[0],l=e._data[0],a=e.valToPos(l[o[0]],n,!0),r=e.valToPos(l[o[1]],n,!0),i=We(r-a),u=e.series[t],h=i/(u.points.space*fe);return o[1]-o[0]<=h}var Bs={scale:null,auto:!0,sorted:0,min:be,max:-be},xi=(e,t,n,o,l)=>l,js={show:!0,auto:!0,sorted:0,gaps:xi,alpha:1,facets:[Fe({},Bs,{scale:"x"}),Fe({},Bs,{scale:"y"})]},Gs={scale:"y",auto:!0,sorted:0,show:!0,spanGaps:!1,gaps:xi,alpha:1,points:{show:Vu,filter:null},values:null,min:be,max:-be,idxs:[],path:null,clip:null};function Hu(e,t,n,o,l){return n/10}var Ci={time:!0,auto:!0,distr:1,log:10,asinh:1,min:null,max:null,dir:1,ori:0},zu=Fe({},Ci,{time:!1,ori:1}),qs={};function Ai(e,t){let n=qs[e];return n||(n={key:e,plots:[],sub(o){n.plots.push(o)},unsub(o){n.plots=n.plots.filter(l=>l!=o)},pub(o,l,a,r,i,u,h){for(let m=0;m<n.plots.length;m++)n.plots[m]!=l&&n.plots[m].pub(o,l,a,r,i,u,h)}},e!=null&&(qs[e]=n)),n}var ro=1,Tr=2;function Tn(e,t,n){let o=e.mode,l=e.series[t],a=o==2?e._data[t]:e._data,r=e.scales,i=e.bbox,u=a[0],h=o==2?a[1]:a[t],m=o==2?r[l.facets[0].scale]:r[e.series[0].scale],f=o==2?r[l.facets[1].scale]:r[l.scale],g=i.left,b=i.top,S=i.width,x=i.height,v=e.valToPosH,D=e.valToPosV;return m.ori==0?n(l,u,h,m,f,v,D,g,b,S,x,ml,so,gl,Pi,Di):n(l,u,h,m,f,D,v,b,g,x,S,$l,io,Gr,Ti,Ii)}function Br(e,t){let n=0,o=0,l=de(e.bands,Ur);for(let a=0;a<l.length;a++){let r=l[a];r.series[0]==t?n=r.dir:r.series[1]==t&&(r.dir==1?o|=1:o|=2)}return[n,o==1?-1:o==2?1:o==3?2:0]}function Wu(e,t,n,o,l){let a=e.mode,r=e.series[t],i=a==2?r.facets[1].scale:r.scale,u=e.scales[i];return l==-1?u.min:l==1?u.max:u.distr==3?u.dir==1?u.min:u.max:0}function Xt(e,t,n,o,l,a){return Tn(e,t,(r,i,u,h,m,f,g,b,S,x,v)=>{let D=r.pxRound,w=h.dir*(h.ori==0?1:-1),A=h.ori==0?so:io,C,J;w==1?(C=n,J=o):(C=o,J=n);let O=D(f(i[C],h,x,b)),Q=D(g(u[C],m,v,S)),B=D(f(i[J],h,x,b)),ee=D(g(a==1?m.max:m.min,m,v,S)),W=new Path2D(l);return A(W,B,ee),A(W,O,ee),A(W,O,Q),W})}function hl(e,t,n,o,l,a){let r=null;if(e.length>0){r=new Path2D;let i=t==0?gl:Gr,u=n;for(let f=0;f<e.length;f++){let g=e[f];if(g[1]>g[0]){let b=g[0]-u;b>0&&i(r,u,o,b,o+a),u=g[1]}}let h=n+l-u,m=10;h>0&&i(r,u,o-m/2,h,o+a+m)}return r}function Bu(e,t,n){let o=e[e.length-1];o&&o[0]==t?o[1]=n:e.push([t,n])}function jr(e,t,n,o,l,a,r){let i=[],u=e.length;for(let h=l==1?n:o;h>=n&&h<=o;h+=l)if(t[h]===null){let f=h,g=h;if(l==1)for(;++h<=o&&t[h]===null;)g=h;else for(;--h>=n&&t[h]===null;)g=h;let b=a(e[f]),S=g==f?b:a(e[g]),x=f-l;b=r<=0&&x>=0&&x<u?a(e[x]):b;let D=g+l;S=r>=0&&D>=0&&D<u?a(e[D]):S,S>=b&&i.push([b,S])}return i}function Ys(e){return e==0?li:e==1?ze:t=>xn(t,e)}function Ei(e){let t=e==0?ml:$l,n=e==0?(l,a,r,i,u,h)=>{l.arcTo(a,r,i,u,h)}:(l,a,r,i,u,h)=>{l.arcTo(r,a,u,i,h)},o=e==0?(l,a,r,i,u)=>{l.rect(a,r,i,u)}:(l,a,r,i,u)=>{l.rect(r,a,u,i)};return(l,a,r,i,u,h=0,m=0)=>{h==0&&m==0?o(l,a,r,i,u):(h=Ot(h,i/2,u/2),m=Ot(m,i/2,u/2),t(l,a+h,r),n(l,a+i,r,a+i,r+u,h),n(l,a+i,r+u,a,r+u,m),n(l,a,r+u,a,r,m),n(l,a,r,a+i,r,h),l.closePath())}}var ml=(e,t,n)=>{e.moveTo(t,n)},$l=(e,t,n)=>{e.moveTo(n,t)},so=(e,t,n)=>{e.lineTo(t,n)},io=(e,t,n)=>{e.lineTo(n,t)},gl=Ei(0),Gr=Ei(1),Pi=(e,t,n,o,l,a)=>{e.arc(t,n,o,l,a)},Ti=(e,t,n,o,l,a)=>{e.arc(n,t,o,l,a)},Di=(e,t,n,o,l,a,r)=>{e.bezierCurveTo(t,n,o,l,a,r)},Ii=(e,t,n,o,l,a,r)=>{e.bezierCurveTo(n,t,l,o,r,a)};function Ri(e){return(t,n,o,l,a)=>Tn(t,n,(r,i,u,h,m,f,g,b,S,x,v)=>{let{pxRound:D,points:w}=r,A,C;h.ori==0?(A=ml,C=Pi):(A=$l,C=Ti);let J=ye(w.width*fe,3),O=(w.size-w.width)/2*fe,Q=ye(O*2,3),B=new Path2D,ee=new Path2D,{left:W,top:T,width:j,height:L}=t.bbox;gl(ee,W-Q,T-Q,j+Q*2,L+Q*2);let Y=z=>{if(u[z]!=null){let ae=D(f(i[z],h,x,b)),H=D(g(u[z],m,v,S));A(B,ae+O,H),C(B,ae,H,O,0,al*2)}};if(a)a.forEach(Y);else for(let z=o;z<=l;z++)Y(z);return{stroke:J>0?B:null,fill:B,clip:ee,flags:ro|Tr}})}function Li(e){return(t,n,o,l,a,r)=>{o!=l&&(a!=o&&r!=o&&e(t,n,o),a!=l&&r!=l&&e(t,n,l),e(t,n,r))}}var ju=Li(so),Gu=Li(io);function Mi(e){let t=de(e?.alignGaps,0);return(n,o,l,a)=>Tn(n,o,(r,i,u,h,m,f,g,b,S,x,v)=>{[l,a]=dl(u,l,a);let D=r.pxRound,w=L=>D(f(L,h,x,b)),A=L=>D(g(L,m,v,S)),C,J;h.ori==0?(C=so,J=ju):(C=io,J=Gu);let O=h.dir*(h.ori==0?1:-1),Q={stroke:new Path2D,fill:null,clip:null,band:null,gaps:null,flags:ro},B=Q.stroke,ee=!1;if(a-l>=x*4){let L=U=>n.posToVal(U,h.key,!0),Y=null,z=null,ae,H,it,Ee=w(i[O==1?l:a]),ie=w(i[l]),me=w(i[a]),ne=L(O==1?ie+1:me-1);for(let U=O==1?l:a;U>=l&&U<=a;U+=O){let Ue=i[U],Pe=(O==1?Ue<ne:Ue>ne)?Ee:w(Ue),pe=u[U];Pe==Ee?pe!=null?(H=pe,Y==null?(C(B,Pe,A(H)),ae=Y=z=H):H<Y?Y=H:H>z&&(z=H)):pe===null&&(ee=!0):(Y!=null&&J(B,Ee,A(Y),A(z),A(ae),A(H)),pe!=null?(H=pe,C(B,Pe,A(H)),Y=z=ae=H):(Y=z=null,pe===null&&(ee=!0)),Ee=Pe,ne=L(Ee+O))}Y!=null&&Y!=z&&it!=Ee&&J(B,Ee,A(Y),A(z),A(ae),A(H))}else for(let L=O==1?l:a;L>=l&&L<=a;L+=O){let Y=u[L];Y===null?ee=!0:Y!=null&&C(B,w(i[L]),A(Y))}let[T,j]=Br(n,o);if(r.fill!=null||T!=0){let L=Q.fill=new Path2D(B),Y=r.fillTo(n,o,r.min,r.max,T),z=A(Y),ae=w(i[l]),H=w(i[a]);O==-1&&([H,ae]=[ae,H]),C(L,H,z),C(L,ae,z)}if(!r.spanGaps){let L=[];ee&&L.push(...jr(i,u,l,a,O,w,t)),Q.gaps=L=r.gaps(n,o,l,a,L),Q.clip=hl(L,h.ori,b,S,x,v)}return j!=0&&(Q.band=j==2?[Xt(n,o,l,a,B,-1),Xt(n,o,l,a,B,1)]:Xt(n,o,l,a,B,j)),Q})}function qu(e){let t=de(e.align,1),n=de(e.ascDesc,!1),o=de(e.alignGaps,0),l=de(e.extend,!1);return(a,r,i,u)=>Tn(a,r,(h,m,f,g,b,S,x,v,D,w,A)=>{[i,u]=dl(f,i,u);let C=h.pxRound,{left:J,width:O}=a.bbox,Q=ie=>C(S(ie,g,w,v)),B=ie=>C(x(ie,b,A,D)),ee=g.ori==0?so:io,W={stroke:new Path2D,fill:null,clip:null,band:null,gaps:null,flags:ro},T=W.stroke,j=g.dir*(g.ori==0?1:-1),L=B(f[j==1?i:u]),Y=Q(m[j==1?i:u]),z=Y,ae=Y;l&&t==-1&&(ae=J,ee(T,ae,L)),ee(T,Y,L);for(let ie=j==1?i:u;ie>=i&&ie<=u;ie+=j){let me=f[ie];if(me==null)continue;let ne=Q(m[ie]),U=B(me);t==1?ee(T,ne,L):ee(T,z,U),ee(T,ne,U),L=U,z=ne}let H=z;l&&t==1&&(H=J+O,ee(T,H,L));let[it,Ee]=Br(a,r);if(h.fill!=null||it!=0){let ie=W.fill=new Path2D(T),me=h.fillTo(a,r,h.min,h.max,it),ne=B(me);ee(ie,H,ne),ee(ie,ae,ne)}if(!h.spanGaps){let ie=[];ie.push(...jr(m,f,i,u,j,Q,o));let me=h.width*fe/2,ne=n||t==1?me:-me,U=n||t==-1?-me:me;ie.forEach(Ue=>{Ue[0]+=ne,Ue[1]+=U}),W.gaps=ie=h.gaps(a,r,i,u,ie),W.clip=hl(ie,g.ori,v,D,w,A)}return Ee!=0&&(W.band=Ee==2?[Xt(a,r,i,u,T,-1),Xt(a,r,i,u,T,1)]:Xt(a,r,i,u,T,Ee)),W})}function Ks(e,t,n,o,l,a,r=be){if(e.length>1){let i=null;for(let u=0,h=1/0;u<e.length;u++)if(t[u]!==void 0){if(i!=null){let m=We(e[u]-e[i]);m<h&&(h=m,r=We(n(e[u],o,l,a)-n(e[i],o,l,a)))}i=u}}return r}function Yu(e){e=e||Io;let t=de(e.size,[.6,be,1]),n=e.align||0,o=e.gap||0,l=e.radius;l=l==null?[0,0]:typeof l=="number"?[l,0]:l;let a=re(l),r=1-t[0],i=de(t[1],be),u=de(t[2],1),h=de(e.disp,Io),m=de(e.each,b=>{}),{fill:f,stroke:g}=h;return(b,S,x,v)=>Tn(b,S,(D,w,A,C,J,O,Q,B,ee,W,T)=>{let j=D.pxRound,L=n,Y=o*fe,z=i*fe,ae=u*fe,H,it;C.ori==0?[H,it]=a(b,S):[it,H]=a(b,S);let Ee=C.dir*(C.ori==0?1:-1),ie=C.ori==0?gl:Gr,me=C.ori==0?m:(N,_e,Ve,Mn,mn,Ut,$n)=>{m(N,_e,Ve,mn,Mn,$n,Ut)},ne=de(b.bands,Ur).find(N=>N.series[0]==S),U=ne!=null?ne.dir:0,Ue=D.fillTo(b,S,D.min,D.max,U),tt=j(Q(Ue,J,T,ee)),Pe,pe,Tt,ft=W,Ie=j(D.width*fe),Ft=!1,Yt=null,vt=null,tn=null,In=null;f!=null&&(Ie==0||g!=null)&&(Ft=!0,Yt=f.values(b,S,x,v),vt=new Map,new Set(Yt).forEach(N=>{N!=null&&vt.set(N,new Path2D)}),Ie>0&&(tn=g.values(b,S,x,v),In=new Map,new Set(tn).forEach(N=>{N!=null&&In.set(N,new Path2D)})));let{x0:Rn,size:fo}=h;if(Rn!=null&&fo!=null){L=1,w=Rn.values(b,S,x,v),Rn.unit==2&&(w=w.map(Ve=>b.posToVal(B+Ve*W,C.key,!0)));let N=fo.values(b,S,x,v);fo.unit==2?pe=N[0]*W:pe=O(N[0],C,W,B)-O(0,C,W,B),ft=Ks(w,A,O,C,W,B,ft),Tt=ft-pe+Y}else ft=Ks(w,A,O,C,W,B,ft),Tt=ft*r+Y,pe=ft-Tt;Tt<1&&(Tt=0),Ie>=pe/2&&(Ie=0),Tt<5&&(j=li);let No=Tt>0,pn=ft-Tt-(No?Ie:0);pe=j(Ar(pn,ae,z)),Pe=(L==0?pe/2:L==Ee?0:pe)-L*Ee*((L==0?Y/2:0)+(No?Ie/2:0));let nt={stroke:null,fill:null,clip:null,band:null,gaps:null,flags:0},Ln=Ft?null:new Path2D,Kt=null;if(ne!=null)Kt=b.data[ne.series[1]];else{let{y0:N,y1:_e}=h;N!=null&&_e!=null&&(A=_e.values(b,S,x,v),Kt=N.values(b,S,x,v))}let hn=H*pe,Z=it*pe;for(let N=Ee==1?x:v;N>=x&&N<=v;N+=Ee){let _e=A[N];if(_e==null)continue;if(Kt!=null){let ct=Kt[N]??0;if(_e-ct==0)continue;tt=Q(ct,J,T,ee)}let Ve=C.distr!=2||h!=null?w[N]:N,Mn=O(Ve,C,W,B),mn=Q(de(_e,Ue),J,T,ee),Ut=j(Mn-Pe),$n=j(st(mn,tt)),pt=j(Ot(mn,tt)),wt=$n-pt;if(_e!=null){let ct=_e<0?Z:hn,Dt=_e<0?hn:Z;Ft?(Ie>0&&tn[N]!=null&&ie(In.get(tn[N]),Ut,pt+yt(Ie/2),pe,st(0,wt-Ie),ct,Dt),Yt[N]!=null&&ie(vt.get(Yt[N]),Ut,pt+yt(Ie/2),pe,st(0,wt-Ie),ct,Dt)):ie(Ln,Ut,pt+yt(Ie/2),pe,st(0,wt-Ie),ct,Dt),me(b,S,N,Ut-Ie/2,pt,pe+Ie,wt)}}return Ie>0?nt.stroke=Ft?In:Ln:Ft||(nt._fill=D.width==0?D._fill:D._stroke??D._fill,nt.width=0),nt.fill=Ft?vt:Ln,nt})}function Ku(e,t){let n=de(t?.alignGaps,0);return(o,l,a,r)=>Tn(o,l,(i,u,h,m,f,g,b,S,x,v,D)=>{[a,r]=dl(h,a,r);let w=i.pxRound,A=H=>w(g(H,m,v,S)),C=H=>w(b(H,f,D,x)),J,O,Q;m.ori==0?(J=ml,Q=so,O=Di):(J=$l,Q=io,O=Ii);let B=m.dir*(m.ori==0?1:-1),ee=A(u[B==1?a:r]),W=ee,T=[],j=[];for(let H=B==1?a:r;H>=a&&H<=r;H+=B)if(h[H]!=null){let Ee=u[H],ie=A(Ee);T.push(W=ie),j.push(C(h[H]))}let L={stroke:e(T,j,J,Q,O,w),fill:null,clip:null,band:null,gaps:null,flags:ro},Y=L.stroke,[z,ae]=Br(o,l);if(i.fill!=null||z!=0){let H=L.fill=new Path2D(Y),it=i.fillTo(o,l,i.min,i.max,z),Ee=C(it);Q(H,W,Ee),Q(H,ee,Ee)}if(!i.spanGaps){let H=[];H.push(...jr(u,h,a,r,B,A,n)),L.gaps=H=i.gaps(o,l,a,r,H),L.clip=hl(H,m.ori,S,x,v,D)}return ae!=0&&(L.band=ae==2?[Xt(o,l,a,r,Y,-1),Xt(o,l,a,r,Y,1)]:Xt(o,l,a,r,Y,ae)),L})}function Ju(e){return Ku(Qu,e)}function Qu(e,t,n,o,l,a){let r=e.length;if(r<2)return null;let i=new Path2D;if(n(i,e[0],t[0]),r==2)o(i,e[1],t[1]);else{let u=Array(r),h=Array(r-1),m=Array(r-1),f=Array(r-1);for(let g=0;g<r-1;g++)m[g]=t[g+1]-t[g],f[g]=e[g+1]-e[g],h[g]=m[g]/f[g];u[0]=h[0];for(let g=1;g<r-1;g++)h[g]===0||h[g-1]===0||h[g-1]>0!=h[g]>0?u[g]=0:(u[g]=3*(f[g-1]+f[g])/((2*f[g]+f[g-1])/h[g-1]+(f[g]+2*f[g-1])/h[g]),isFinite(u[g])||(u[g]=0));u[r-1]=h[r-2];for(let g=0;g<r-1;g++)l(i,e[g]+f[g]/3,t[g]+u[g]*f[g]/3,e[g+1]-f[g]/3,t[g+1]-u[g+1]*f[g]/3,e[g+1],t[g+1])}return i}var Dr=new Set;function Js(){for(let e of Dr)e.syncRect(!0)}ao&&(En(Dd,to,Js),En(Id,to,Js,!0),En(sl,to,()=>{Je.pxRatio=fe}));var Zu=Mi(),Xu=Ri();function Qs(e,t,n,o){return(o?[e[0],e[1]].concat(e.slice(2)):[e[0]].concat(e.slice(1))).map((a,r)=>Ir(a,r,t,n))}function ef(e,t){return e.map((n,o)=>o==0?{}:Fe({},t,n))}function Ir(e,t,n,o){return Fe({},t==0?n:o,e)}function Ni(e,t,n){return t==null?oo:[t,n]}var tf=Ni;function nf(e,t,n){return t==null?oo:il(t,n,Or,!0)}function Oi(e,t,n,o){return t==null?oo:ul(t,n,e.scales[o].log,!1)}var of=Oi;function Fi(e,t,n,o){return t==null?oo:Nr(t,n,e.scales[o].log,!1)}var lf=Fi;function rf(e,t,n,o,l){let a=st(Ps(e),Ps(t)),r=t-e,i=Nt(l/o*r,n);do{let u=n[i],h=o*u/r;if(h>=l&&a+(u<5?fn.get(u):0)<=17)return[u,h]}while(++i<n.length);return[0,0]}function Zs(e){let t,n;return e=e.replace(/(\d+)px/,(o,l)=>(t=ze((n=+l)*fe))+"px"),[e,t,n]}function af(e){e.show&&[e.font,e.labelFont].forEach(t=>{let n=ye(t[2]*fe,1);t[0]=t[0].replace(/[0-9.]+px/,n+"px"),t[1]=n})}function Je(e,t,n){let o={mode:de(e.mode,1)},l=o.mode;function a(s,c,p,$){let y=c.valToPct(s);return $+p*(c.dir==-1?1-y:y)}function r(s,c,p,$){let y=c.valToPct(s);return $+p*(c.dir==-1?y:1-y)}function i(s,c,p,$){return c.ori==0?a(s,c,p,$):r(s,c,p,$)}o.valToPosH=a,o.valToPosV=r;let u=!1;o.status=0;let h=o.root=Et(pd);if(e.id!=null&&(h.id=e.id),bt(h,e.class),e.title){let s=Et($d,h);s.textContent=e.title}let m=Mt("canvas"),f=o.ctx=m.getContext("2d"),g=Et(gd,h);En("click",g,s=>{s.target===S&&(we!=Gn||Te!=qn)&&Ze.click(o,s)},!0);let b=o.under=Et(bd,g);g.appendChild(m);let S=o.over=Et(yd,g);e=lo(e);let x=+de(e.pxAlign,1),v=Ys(x);(e.plugins||[]).forEach(s=>{s.opts&&(e=s.opts(o,e)||e)});let D=e.ms||.001,w=o.series=l==1?Qs(e.series||[],Hs,Gs,!1):ef(e.series||[null],js),A=o.axes=Qs(e.axes||[],Vs,Ws,!0),C=o.scales={},J=o.bands=e.bands||[];J.forEach(s=>{s.fill=re(s.fill||null),s.dir=de(s.dir,-1)});let O=l==2?w[1].facets[0].scale:w[0].scale,Q={axes:Ic,series:Ac},B=(e.drawOrder||["axes","series"]).map(s=>Q[s]);function ee(s){let c=s.distr==3?p=>Zt(p>0?p:s.clamp(o,p,s.min,s.max,s.key)):s.distr==4?p=>yr(p,s.asinh):s.distr==100?p=>s.fwd(p):p=>p;return p=>{let $=c(p),{_min:y,_max:_}=s,k=_-y;return($-y)/k}}function W(s){let c=C[s];if(c==null){let p=(e.scales||Io)[s]||Io;if(p.from!=null){W(p.from);let $=Fe({},C[p.from],p,{key:s});$.valToPct=ee($),C[s]=$}else{c=C[s]=Fe({},s==O?Ci:zu,p),c.key=s;let $=c.time,y=c.range,_=un(y);if((s!=O||l==2&&!$)&&(_&&(y[0]==null||y[1]==null)&&(y={min:y[0]==null?Cs:{mode:1,hard:y[0],soft:y[0]},max:y[1]==null?Cs:{mode:1,hard:y[1],soft:y[1]}},_=!1),!_&&pl(y))){let k=y;y=(E,P,R)=>P==null?oo:il(P,R,k)}c.range=re(y||($?tf:s==O?c.distr==3?of:c.distr==4?lf:Ni:c.distr==3?Oi:c.distr==4?Fi:nf)),c.auto=re(_?!1:c.auto),c.clamp=re(c.clamp||Hu),c._min=c._max=null,c.valToPct=ee(c)}}}W("x"),W("y"),l==1&&w.forEach(s=>{W(s.scale)}),A.forEach(s=>{W(s.scale)});for(let s in e.scales)W(s);let T=C[O],j=T.distr,L,Y;T.ori==0?(bt(h,hd),L=a,Y=r):(bt(h,md),L=r,Y=a);let z={};for(let s in C){let c=C[s];(c.min!=null||c.max!=null)&&(z[s]={min:c.min,max:c.max},c.min=c.max=null)}let ae=e.tzDate||(s=>new Date(ze(s/D))),H=e.fmtDate||Vr,it=D==1?hu(ae):gu(ae),Ee=Os(ae,Ns(D==1?pu:$u,H)),ie=Us(ae,Fs(yu,H)),me=[],ne=o.legend=Fe({},wu,e.legend),U=o.cursor=Fe({},Eu,{drag:{y:l==2}},e.cursor),Ue=ne.show,tt=U.show,Pe=ne.markers;ne.idxs=me,Pe.width=re(Pe.width),Pe.dash=re(Pe.dash),Pe.stroke=re(Pe.stroke),Pe.fill=re(Pe.fill);let pe,Tt,ft,Ie=[],Ft=[],Yt,vt=!1,tn={};if(ne.live){let s=w[1]?w[1].values:null;vt=s!=null,Yt=vt?s(o,1,0):{_:0};for(let c in Yt)tn[c]=Lr}if(Ue)if(pe=Mt("table",xd,h),ft=Mt("tbody",null,pe),ne.mount(o,pe),vt){Tt=Mt("thead",null,pe,ft);let s=Mt("tr",null,Tt);Mt("th",null,s);for(var In in Yt)Mt("th",ps,s).textContent=In}else bt(pe,Ad),ne.live&&bt(pe,Cd);let Rn={show:!0},fo={show:!1};function No(s,c){if(c==0&&(vt||!ne.live||l==2))return oo;let p=[],$=Mt("tr",Ed,ft,ft.childNodes[c]);bt($,s.class),s.show||bt($,An);let y=Mt("th",null,$);if(Pe.show){let E=Et(Pd,y);if(c>0){let P=Pe.width(o,c);P&&(E.style.border=P+"px "+Pe.dash(o,c)+" "+Pe.stroke(o,c)),E.style.background=Pe.fill(o,c)}}let _=Et(ps,y);s.label instanceof HTMLElement?_.appendChild(s.label):_.textContent=s.label,c>0&&(Pe.show||(_.style.color=s.width>0?Pe.stroke(o,c):Pe.fill(o,c)),nt("click",y,E=>{if(U._lock)return;bn(E);let P=w.indexOf(s);if((E.ctrlKey||E.metaKey)!=ne.isolate){let R=w.some((M,F)=>F>0&&F!=P&&M.show);w.forEach((M,F)=>{F>0&&Ht(F,R?F==P?Rn:fo:Rn,!0,Ne.setSeries)})}else Ht(P,{show:!s.show},!0,Ne.setSeries)},!1),On&&nt(gs,y,E=>{U._lock||(bn(E),Ht(w.indexOf(s),Kn,!0,Ne.setSeries))},!1));for(var k in Yt){let E=Mt("td",Td,$);E.textContent="--",p.push(E)}return[$,p]}let pn=new Map;function nt(s,c,p,$=!0){let y=pn.get(c)||{},_=U.bind[s](o,c,p,$);_&&(En(s,c,y[s]=_),pn.set(c,y))}function Ln(s,c,p){let $=pn.get(c)||{};for(let y in $)(s==null||y==s)&&(Cr(y,c,$[y]),delete $[y]);s==null&&pn.delete(c)}let Kt=0,hn=0,Z=0,N=0,_e=0,Ve=0,Mn=_e,mn=Ve,Ut=Z,$n=N,pt=0,wt=0,ct=0,Dt=0;o.bbox={};let El=!1,Oo=!1,Nn=!1,gn=!1,Fo=!1,St=!1;function Pl(s,c,p){(p||s!=o.width||c!=o.height)&&ta(s,c),zn(!1),Nn=!0,Oo=!0,Wn()}function ta(s,c){o.width=Kt=Z=s,o.height=hn=N=c,_e=Ve=0,_c(),vc();let p=o.bbox;pt=p.left=xn(_e*fe,.5),wt=p.top=xn(Ve*fe,.5),ct=p.width=xn(Z*fe,.5),Dt=p.height=xn(N*fe,.5)}let gc=3;function bc(){let s=!1,c=0;for(;!s;){c++;let p=Tc(c),$=Dc(c);s=c==gc||p&&$,s||(ta(o.width,o.height),Oo=!0)}}function yc({width:s,height:c}){Pl(s,c)}o.setSize=yc;function _c(){let s=!1,c=!1,p=!1,$=!1;A.forEach((y,_)=>{if(y.show&&y._show){let{side:k,_size:E}=y,P=k%2,R=y.label!=null?y.labelSize:0,M=E+R;M>0&&(P?(Z-=M,k==3?(_e+=M,$=!0):p=!0):(N-=M,k==0?(Ve+=M,s=!0):c=!0))}}),yn[0]=s,yn[1]=p,yn[2]=c,yn[3]=$,Z-=nn[1]+nn[3],_e+=nn[3],N-=nn[2]+nn[0],Ve+=nn[0]}function vc(){let s=_e+Z,c=Ve+N,p=_e,$=Ve;function y(_,k){switch(_){case 1:return s+=k,s-k;case 2:return c+=k,c-k;case 3:return p-=k,p+k;case 0:return $-=k,$+k}}A.forEach((_,k)=>{if(_.show&&_._show){let E=_.side;_._pos=y(E,_._size),_.label!=null&&(_._lpos=y(E,_.labelSize))}})}if(U.dataIdx==null){let s=U.hover,c=s.skip=new Set(s.skip??[]);c.add(void 0);let p=s.prox=re(s.prox),$=s.bias??(s.bias=0);U.dataIdx=(y,_,k,E)=>{if(_==0)return k;let P=k,R=p(y,_,k,E)??be,M=R>=0&&R<be,F=T.ori==0?Z:N,K=U.left,ue=t[0],ce=t[_];if(c.has(ce[k])){P=null;let oe=null,G=null,V;if($==0||$==-1)for(V=k;oe==null&&V-- >0;)c.has(ce[V])||(oe=V);if($==0||$==1)for(V=k;G==null&&V++<ce.length;)c.has(ce[V])||(G=V);if(oe!=null||G!=null)if(M){let ke=oe==null?-1/0:L(ue[oe],T,F,0),Re=G==null?1/0:L(ue[G],T,F,0),Ke=K-ke,$e=Re-K;Ke<=$e?Ke<=R&&(P=oe):$e<=R&&(P=G)}else P=G==null?oe:oe==null?G:k-oe<=G-k?oe:G}else M&&We(K-L(ue[k],T,F,0))>R&&(P=null);return P}}let bn=s=>{U.event=s};U.idxs=me,U._lock=!1;let Xe=U.points;Xe.show=re(Xe.show),Xe.size=re(Xe.size),Xe.stroke=re(Xe.stroke),Xe.width=re(Xe.width),Xe.fill=re(Xe.fill);let Vt=o.focus=Fe({},e.focus||{alpha:.3},U.focus),On=Vt.prox>=0,Fn=On&&Xe.one,kt=[],Un=[],Vn=[];function na(s,c){let p=Xe.show(o,c);if(p instanceof HTMLElement)return bt(p,kd),bt(p,s.class),qt(p,-10,-10,Z,N),S.insertBefore(p,kt[c]),p}function oa(s,c){if(l==1||c>0){let p=l==1&&C[s.scale].time,$=s.value;s.value=p?Is($)?Us(ae,Fs($,H)):$||ie:$||Fu,s.label=s.label||(p?Tu:Pu)}if(Fn||c>0){s.width=s.width==null?1:s.width,s.paths=s.paths||Zu||zd,s.fillTo=re(s.fillTo||Wu),s.pxAlign=+de(s.pxAlign,x),s.pxRound=Ys(s.pxAlign),s.stroke=re(s.stroke||null),s.fill=re(s.fill||null),s._stroke=s._fill=s._paths=s._focus=null;let p=Uu(st(1,s.width),1),$=s.points=Fe({},{size:p,width:st(1,p*.2),stroke:s.stroke,space:p*2,paths:Xu,_stroke:null,_fill:null},s.points);$.show=re($.show),$.filter=re($.filter),$.fill=re($.fill),$.stroke=re($.stroke),$.paths=re($.paths),$.pxAlign=s.pxAlign}if(Ue){let p=No(s,c);Ie.splice(c,0,p[0]),Ft.splice(c,0,p[1]),ne.values.push(null)}if(tt){me.splice(c,0,null);let p=null;Fn?c==0&&(p=na(s,c)):c>0&&(p=na(s,c)),kt.splice(c,0,p),Un.splice(c,0,0),Vn.splice(c,0,0)}Ye("addSeries",c)}function wc(s,c){c=c??w.length,s=l==1?Ir(s,c,Hs,Gs):Ir(s,c,{},js),w.splice(c,0,s),oa(w[c],c)}o.addSeries=wc;function Sc(s){if(w.splice(s,1),Ue){ne.values.splice(s,1),Ft.splice(s,1);let c=Ie.splice(s,1)[0];Ln(null,c.firstChild),c.remove()}tt&&(me.splice(s,1),kt.splice(s,1)[0].remove(),Un.splice(s,1),Vn.splice(s,1)),Ye("delSeries",s)}o.delSeries=Sc;let yn=[!1,!1,!1,!1];function kc(s,c){if(s._show=s.show,s.show){let p=s.side%2,$=C[s.scale];$==null&&(s.scale=p?w[1].scale:O,$=C[s.scale]);let y=$.time;s.size=re(s.size),s.space=re(s.space),s.rotate=re(s.rotate),un(s.incrs)&&s.incrs.forEach(k=>{!fn.has(k)&&fn.set(k,si(k))}),s.incrs=re(s.incrs||($.distr==2?du:y?D==1?fu:mu:Cn)),s.splits=re(s.splits||(y&&$.distr==1?it:$.distr==3?Er:$.distr==4?Ru:Iu)),s.stroke=re(s.stroke),s.grid.stroke=re(s.grid.stroke),s.ticks.stroke=re(s.ticks.stroke),s.border.stroke=re(s.border.stroke);let _=s.values;s.values=un(_)&&!un(_[0])?re(_):y?un(_)?Os(ae,Ns(_,H)):Is(_)?bu(ae,_):_||Ee:_||Du,s.filter=re(s.filter||($.distr>=3&&$.log==10?Nu:$.distr==3&&$.log==2?Ou:ri)),s.font=Zs(s.font),s.labelFont=Zs(s.labelFont),s._size=s.size(o,null,c,0),s._space=s._rotate=s._incrs=s._found=s._splits=s._values=null,s._size>0&&(yn[c]=!0,s._el=Et(_d,g))}}function po(s,c,p,$){let[y,_,k,E]=p,P=c%2,R=0;return P==0&&(E||_)&&(R=c==0&&!y||c==2&&!k?ze(Vs.size/3):0),P==1&&(y||k)&&(R=c==1&&!_||c==3&&!E?ze(Ws.size/2):0),R}let la=o.padding=(e.padding||[po,po,po,po]).map(s=>re(de(s,po))),nn=o._padding=la.map((s,c)=>s(o,c,yn,0)),Qe,Be=null,je=null,Uo=l==1?w[0].idxs:null,It=null,ho=!1;function ra(s,c){if(t=s??[],o.data=o._data=t,l==2){Qe=0;for(let p=1;p<w.length;p++)Qe+=t[p][0].length}else{t.length==0&&(o.data=o._data=t=[[]]),It=t[0],Qe=It.length;let p=t;if(j==2){p=t.slice();let $=p[0]=Array(Qe);for(let y=0;y<Qe;y++)$[y]=y}o._data=t=p}if(zn(!0),Ye("setData"),j==2&&(Nn=!0),c!==!1){let p=T;p.auto(o,ho)?Tl():ln(O,p.min,p.max),gn=gn||U.left>=0,St=!0,Wn()}}o.setData=ra;function Tl(){ho=!0;let s,c;l==1&&(Qe>0?(Be=Uo[0]=0,je=Uo[1]=Qe-1,s=t[0][Be],c=t[0][je],j==2?(s=Be,c=je):s==c&&(j==3?[s,c]=ul(s,s,T.log,!1):j==4?[s,c]=Nr(s,s,T.log,!1):T.time?c=s+ze(86400/D):[s,c]=il(s,c,Or,!0))):(Be=Uo[0]=s=null,je=Uo[1]=c=null)),ln(O,s,c)}let Vo,Hn,Dl,Il,Rl,Ll,Ml,Nl,Ol,dt;function aa(s,c,p,$,y,_){s??(s=ms),p??(p=Ur),$??($="butt"),y??(y=ms),_??(_="round"),s!=Vo&&(f.strokeStyle=Vo=s),y!=Hn&&(f.fillStyle=Hn=y),c!=Dl&&(f.lineWidth=Dl=c),_!=Rl&&(f.lineJoin=Rl=_),$!=Ll&&(f.lineCap=Ll=$),p!=Il&&f.setLineDash(Il=p)}function sa(s,c,p,$){c!=Hn&&(f.fillStyle=Hn=c),s!=Ml&&(f.font=Ml=s),p!=Nl&&(f.textAlign=Nl=p),$!=Ol&&(f.textBaseline=Ol=$)}function Fl(s,c,p,$,y=0){if($.length>0&&s.auto(o,ho)&&(c==null||c.min==null)){let _=de(Be,0),k=de(je,$.length-1),E=p.min==null?Nd($,_,k,y,s.distr==3):[p.min,p.max];s.min=Ot(s.min,p.min=E[0]),s.max=st(s.max,p.max=E[1])}}let ia={min:null,max:null};function xc(){for(let $ in C){let y=C[$];z[$]==null&&(y.min==null||z[O]!=null&&y.auto(o,ho))&&(z[$]=ia)}for(let $ in C){let y=C[$];z[$]==null&&y.from!=null&&z[y.from]!=null&&(z[$]=ia)}z[O]!=null&&zn(!0);let s={};for(let $ in z){let y=z[$];if(y!=null){let _=s[$]=lo(C[$],jd);if(y.min!=null)Fe(_,y);else if($!=O||l==2)if(Qe==0&&_.from==null){let k=_.range(o,null,null,$);_.min=k[0],_.max=k[1]}else _.min=be,_.max=-be}}if(Qe>0){w.forEach(($,y)=>{if(l==1){let _=$.scale,k=z[_];if(k==null)return;let E=s[_];if(y==0){let P=E.range(o,E.min,E.max,_);E.min=P[0],E.max=P[1],Be=Nt(E.min,t[0]),je=Nt(E.max,t[0]),je-Be>1&&(t[0][Be]<E.min&&Be++,t[0][je]>E.max&&je--),$.min=It[Be],$.max=It[je]}else $.show&&$.auto&&Fl(E,k,$,t[y],$.sorted);$.idxs[0]=Be,$.idxs[1]=je}else if(y>0&&$.show&&$.auto){let[_,k]=$.facets,E=_.scale,P=k.scale,[R,M]=t[y],F=s[E],K=s[P];F!=null&&Fl(F,z[E],_,R,_.sorted),K!=null&&Fl(K,z[P],k,M,k.sorted),$.min=k.min,$.max=k.max}});for(let $ in s){let y=s[$],_=z[$];if(y.from==null&&(_==null||_.min==null)){let k=y.range(o,y.min==be?null:y.min,y.max==-be?null:y.max,$);y.min=k[0],y.max=k[1]}}}for(let $ in s){let y=s[$];if(y.from!=null){let _=s[y.from];if(_.min==null)y.min=y.max=null;else{let k=y.range(o,_.min,_.max,$);y.min=k[0],y.max=k[1]}}}let c={},p=!1;for(let $ in s){let y=s[$],_=C[$];if(_.min!=y.min||_.max!=y.max){_.min=y.min,_.max=y.max;let k=_.distr;_._min=k==3?Zt(_.min):k==4?yr(_.min,_.asinh):k==100?_.fwd(_.min):_.min,_._max=k==3?Zt(_.max):k==4?yr(_.max,_.asinh):k==100?_.fwd(_.max):_.max,c[$]=p=!0}}if(p){w.forEach(($,y)=>{l==2?y>0&&c.y&&($._paths=null):c[$.scale]&&($._paths=null)});for(let $ in c)Nn=!0,Ye("setScale",$);tt&&U.left>=0&&(gn=St=!0)}for(let $ in z)z[$]=null}function Cc(s){let c=Ar(Be-1,0,Qe-1),p=Ar(je+1,0,Qe-1);for(;s[c]==null&&c>0;)c--;for(;s[p]==null&&p<Qe-1;)p++;return[c,p]}function Ac(){if(Qe>0){let s=w.some(c=>c._focus)&&dt!=Vt.alpha;s&&(f.globalAlpha=dt=Vt.alpha),w.forEach((c,p)=>{if(p>0&&c.show&&(ca(p,!1),ca(p,!0),c._paths==null)){let $=dt;dt!=c.alpha&&(f.globalAlpha=dt=c.alpha);let y=l==2?[0,t[p][0].length-1]:Cc(t[p]);c._paths=c.paths(o,p,y[0],y[1]),dt!=$&&(f.globalAlpha=dt=$)}}),w.forEach((c,p)=>{if(p>0&&c.show){let $=dt;dt!=c.alpha&&(f.globalAlpha=dt=c.alpha),c._paths!=null&&da(p,!1);{let y=c._paths!=null?c._paths.gaps:null,_=c.points.show(o,p,Be,je,y),k=c.points.filter(o,p,_,y);(_||k)&&(c.points._paths=c.points.paths(o,p,Be,je,k),da(p,!0))}dt!=$&&(f.globalAlpha=dt=$),Ye("drawSeries",p)}}),s&&(f.globalAlpha=dt=1)}}function ca(s,c){let p=c?w[s].points:w[s];p._stroke=p.stroke(o,s),p._fill=p.fill(o,s)}function da(s,c){let p=c?w[s].points:w[s],{stroke:$,fill:y,clip:_,flags:k,_stroke:E=p._stroke,_fill:P=p._fill,_width:R=p.width}=p._paths;R=ye(R*fe,3);let M=null,F=R%2/2;c&&P==null&&(P=R>0?"#fff":E);let K=p.pxAlign==1&&F>0;if(K&&f.translate(F,F),!c){let ue=pt-R/2,ce=wt-R/2,oe=ct+R,G=Dt+R;M=new Path2D,M.rect(ue,ce,oe,G)}c?Ul(E,R,p.dash,p.cap,P,$,y,k,_):Ec(s,E,R,p.dash,p.cap,P,$,y,k,M,_),K&&f.translate(-F,-F)}function Ec(s,c,p,$,y,_,k,E,P,R,M){let F=!1;P!=0&&J.forEach((K,ue)=>{if(K.series[0]==s){let ce=w[K.series[1]],oe=t[K.series[1]],G=(ce._paths||Io).band;un(G)&&(G=K.dir==1?G[0]:G[1]);let V,ke=null;ce.show&&G&&Fd(oe,Be,je)?(ke=K.fill(o,ue)||_,V=ce._paths.clip):G=null,Ul(c,p,$,y,ke,k,E,P,R,M,V,G),F=!0}}),F||Ul(c,p,$,y,_,k,E,P,R,M)}let ua=ro|Tr;function Ul(s,c,p,$,y,_,k,E,P,R,M,F){aa(s,c,p,$,y),(P||R||F)&&(f.save(),P&&f.clip(P),R&&f.clip(R)),F?(E&ua)==ua?(f.clip(F),M&&f.clip(M),zo(y,k),Ho(s,_,c)):E&Tr?(zo(y,k),f.clip(F),Ho(s,_,c)):E&ro&&(f.save(),f.clip(F),M&&f.clip(M),zo(y,k),f.restore(),Ho(s,_,c)):(zo(y,k),Ho(s,_,c)),(P||R||F)&&f.restore()}function Ho(s,c,p){p>0&&(c instanceof Map?c.forEach(($,y)=>{f.strokeStyle=Vo=y,f.stroke($)}):c!=null&&s&&f.stroke(c))}function zo(s,c){c instanceof Map?c.forEach((p,$)=>{f.fillStyle=Hn=$,f.fill(p)}):c!=null&&s&&f.fill(c)}function Pc(s,c,p,$){let y=A[s],_;if($<=0)_=[0,0];else{let k=y._space=y.space(o,s,c,p,$),E=y._incrs=y.incrs(o,s,c,p,$,k);_=rf(c,p,E,$,k)}return y._found=_}function Vl(s,c,p,$,y,_,k,E,P,R){let M=k%2/2;x==1&&f.translate(M,M),aa(E,k,P,R,E),f.beginPath();let F,K,ue,ce,oe=y+($==0||$==3?-_:_);p==0?(K=y,ce=oe):(F=y,ue=oe);for(let G=0;G<s.length;G++)c[G]!=null&&(p==0?F=ue=s[G]:K=ce=s[G],f.moveTo(F,K),f.lineTo(ue,ce));f.stroke(),x==1&&f.translate(-M,-M)}function Tc(s){let c=!0;return A.forEach((p,$)=>{if(!p.show)return;let y=C[p.scale];if(y.min==null){p._show&&(c=!1,p._show=!1,zn(!1));return}else p._show||(c=!1,p._show=!0,zn(!1));let _=p.side,k=_%2,{min:E,max:P}=y,[R,M]=Pc($,E,P,k==0?Z:N);if(M==0)return;let F=y.distr==2,K=p._splits=p.splits(o,$,E,P,R,M,F),ue=y.distr==2?K.map(V=>It[V]):K,ce=y.distr==2?It[K[1]]-It[K[0]]:R,oe=p._values=p.values(o,p.filter(o,ue,$,M,ce),$,M,ce);p._rotate=_==2?p.rotate(o,oe,$,M):0;let G=p._size;p._size=Pt(p.size(o,oe,$,s)),G!=null&&p._size!=G&&(c=!1)}),c}function Dc(s){let c=!0;return la.forEach((p,$)=>{let y=p(o,$,yn,s);y!=nn[$]&&(c=!1),nn[$]=y}),c}function Ic(){for(let s=0;s<A.length;s++){let c=A[s];if(!c.show||!c._show)continue;let p=c.side,$=p%2,y,_,k=c.stroke(o,s),E=p==0||p==3?-1:1,[P,R]=c._found;if(c.label!=null){let lt=c.labelGap*E,$t=ze((c._lpos+lt)*fe);sa(c.labelFont[0],k,"center",p==2?"top":hs),f.save(),$==1?(y=_=0,f.translate($t,ze(wt+Dt/2)),f.rotate((p==3?-al:al)/2)):(y=ze(pt+ct/2),_=$t);let wn=oi(c.label)?c.label(o,s,P,R):c.label;f.fillText(wn,y,_),f.restore()}if(R==0)continue;let M=C[c.scale],F=$==0?ct:Dt,K=$==0?pt:wt,ue=c._splits,ce=M.distr==2?ue.map(lt=>It[lt]):ue,oe=M.distr==2?It[ue[1]]-It[ue[0]]:P,G=c.ticks,V=c.border,ke=G.show?G.size:0,Re=ze(ke*fe),Ke=ze((c.alignTo==2?c._size-ke-c.gap:c.gap)*fe),$e=c._rotate*-al/180,Le=v(c._pos*fe),ht=(Re+Ke)*E,ot=Le+ht;_=$==0?ot:0,y=$==1?ot:0;let xt=c.font[0],Rt=c.align==1?Xn:c.align==2?$r:$e>0?Xn:$e<0?$r:$==0?"center":p==3?$r:Xn,Wt=$e||$==1?"middle":p==2?"top":hs;sa(xt,k,Rt,Wt);let mt=c.font[1]*c.lineGap,Ct=ue.map(lt=>v(i(lt,M,F,K))),Lt=c._values;for(let lt=0;lt<Lt.length;lt++){let $t=Lt[lt];if($t!=null){$==0?y=Ct[lt]:_=Ct[lt],$t=""+$t;let wn=$t.indexOf(`
`)==-1?[$t]:$t.split(/\n/gm);for(let rt=0;rt<wn.length;rt++){let Ta=wn[rt];$e?(f.save(),f.translate(y,_+rt*mt),f.rotate($e),f.fillText(Ta,0,0),f.restore()):f.fillText(Ta,y,_+rt*mt)}}}G.show&&Vl(Ct,G.filter(o,ce,s,R,oe),$,p,Le,Re,ye(G.width*fe,3),G.stroke(o,s),G.dash,G.cap);let Bt=c.grid;Bt.show&&Vl(Ct,Bt.filter(o,ce,s,R,oe),$,$==0?2:1,$==0?wt:pt,$==0?Dt:ct,ye(Bt.width*fe,3),Bt.stroke(o,s),Bt.dash,Bt.cap),V.show&&Vl([Le],[1],$==0?1:0,$==0?1:2,$==1?wt:pt,$==1?Dt:ct,ye(V.width*fe,3),V.stroke(o,s),V.dash,V.cap)}Ye("drawAxes")}function zn(s){w.forEach((c,p)=>{p>0&&(c._paths=null,s&&(l==1?(c.min=null,c.max=null):c.facets.forEach($=>{$.min=null,$.max=null})))})}let Wo=!1,Hl=!1,mo=[];function Rc(){Hl=!1;for(let s=0;s<mo.length;s++)Ye(...mo[s]);mo.length=0}function Wn(){Wo||(Zd(fa),Wo=!0)}function Lc(s,c=!1){Wo=!0,Hl=c,s(o),fa(),c&&mo.length>0&&queueMicrotask(Rc)}o.batch=Lc;function fa(){if(El&&(xc(),El=!1),Nn&&(bc(),Nn=!1),Oo){if(Ae(b,Xn,_e),Ae(b,"top",Ve),Ae(b,Eo,Z),Ae(b,Po,N),Ae(S,Xn,_e),Ae(S,"top",Ve),Ae(S,Eo,Z),Ae(S,Po,N),Ae(g,Eo,Kt),Ae(g,Po,hn),m.width=ze(Kt*fe),m.height=ze(hn*fe),A.forEach(({_el:s,_show:c,_size:p,_pos:$,side:y})=>{if(s!=null)if(c){let _=y===3||y===0?p:0,k=y%2==1;Ae(s,k?"left":"top",$-_),Ae(s,k?"width":"height",p),Ae(s,k?"top":"left",k?Ve:_e),Ae(s,k?"height":"width",k?N:Z),xr(s,An)}else bt(s,An)}),Vo=Hn=Dl=Rl=Ll=Ml=Nl=Ol=Il=null,dt=1,bo(!0),_e!=Mn||Ve!=mn||Z!=Ut||N!=$n){zn(!1);let s=Z/Ut,c=N/$n;if(tt&&!gn&&U.left>=0){U.left*=s,U.top*=c,Bn&&qt(Bn,ze(U.left),0,Z,N),jn&&qt(jn,0,ze(U.top),Z,N);for(let p=0;p<kt.length;p++){let $=kt[p];$!=null&&(Un[p]*=s,Vn[p]*=c,qt($,Pt(Un[p]),Pt(Vn[p]),Z,N))}}if(Se.show&&!Fo&&Se.left>=0&&Se.width>0){Se.left*=s,Se.width*=s,Se.top*=c,Se.height*=c;for(let p in ql)Ae(Yn,p,Se[p])}Mn=_e,mn=Ve,Ut=Z,$n=N}Ye("setSize"),Oo=!1}Kt>0&&hn>0&&(f.clearRect(0,0,m.width,m.height),Ye("drawClear"),B.forEach(s=>s()),Ye("draw")),Se.show&&Fo&&(Bo(Se),Fo=!1),tt&&gn&&(vn(null,!0,!1),gn=!1),ne.show&&ne.live&&St&&(jl(),St=!1),u||(u=!0,o.status=1,Ye("ready")),ho=!1,Wo=!1}o.redraw=(s,c)=>{Nn=c||!1,s!==!1?ln(O,T.min,T.max):Wn()};function zl(s,c){let p=C[s];if(p.from==null){if(Qe==0){let $=p.range(o,c.min,c.max,s);c.min=$[0],c.max=$[1]}if(c.min>c.max){let $=c.min;c.min=c.max,c.max=$}if(Qe>1&&c.min!=null&&c.max!=null&&c.max-c.min<1e-16)return;s==O&&p.distr==2&&Qe>0&&(c.min=Nt(c.min,t[0]),c.max=Nt(c.max,t[0]),c.min==c.max&&c.max++),z[s]=c,El=!0,Wn()}}o.setScale=zl;let Wl,Bl,Bn,jn,pa,ha,Gn,qn,ma,$a,we,Te,on=!1,Ze=U.drag,Ge=Ze.x,qe=Ze.y;tt&&(U.x&&(Wl=Et(wd,S)),U.y&&(Bl=Et(Sd,S)),T.ori==0?(Bn=Wl,jn=Bl):(Bn=Bl,jn=Wl),we=U.left,Te=U.top);let Se=o.select=Fe({show:!0,over:!0,left:0,width:0,top:0,height:0},e.select),Yn=Se.show?Et(vd,Se.over?S:b):null;function Bo(s,c){if(Se.show){for(let p in s)Se[p]=s[p],p in ql&&Ae(Yn,p,s[p]);c!==!1&&Ye("setSelect")}}o.setSelect=Bo;function Mc(s){if(w[s].show)Ue&&xr(Ie[s],An);else if(Ue&&bt(Ie[s],An),tt){let p=Fn?kt[0]:kt[s];p!=null&&qt(p,-10,-10,Z,N)}}function ln(s,c,p){zl(s,{min:c,max:p})}function Ht(s,c,p,$){c.focus!=null&&Vc(s),c.show!=null&&w.forEach((y,_)=>{_>0&&(s==_||s==null)&&(y.show=c.show,Mc(_),l==2?(ln(y.facets[0].scale,null,null),ln(y.facets[1].scale,null,null)):ln(y.scale,null,null),Wn())}),p!==!1&&Ye("setSeries",s,c),$&&yo("setSeries",o,s,c)}o.setSeries=Ht;function Nc(s,c){Fe(J[s],c)}function Oc(s,c){s.fill=re(s.fill||null),s.dir=de(s.dir,-1),c=c??J.length,J.splice(c,0,s)}function Fc(s){s==null?J.length=0:J.splice(s,1)}o.addBand=Oc,o.setBand=Nc,o.delBand=Fc;function Uc(s,c){w[s].alpha=c,tt&&kt[s]!=null&&(kt[s].style.opacity=c),Ue&&Ie[s]&&(Ie[s].style.opacity=c)}let Jt,rn,_n,Kn={focus:!0};function Vc(s){if(s!=_n){let c=s==null,p=Vt.alpha!=1;w.forEach(($,y)=>{if(l==1||y>0){let _=c||y==0||y==s;$._focus=c?null:_,p&&Uc(y,_?1:Vt.alpha)}}),_n=s,p&&Wn()}}Ue&&On&&nt(bs,pe,s=>{U._lock||(bn(s),_n!=null&&Ht(null,Kn,!0,Ne.setSeries))});function zt(s,c,p){let $=C[c];p&&(s=s/fe-($.ori==1?Ve:_e));let y=Z;$.ori==1&&(y=N,s=y-s),$.dir==-1&&(s=y-s);let _=$._min,k=$._max,E=s/y,P=_+(k-_)*E,R=$.distr;return R==3?no(10,P):R==4?Vd(P,$.asinh):R==100?$.bwd(P):P}function Hc(s,c){let p=zt(s,O,c);return Nt(p,t[0],Be,je)}o.valToIdx=s=>Nt(s,t[0]),o.posToIdx=Hc,o.posToVal=zt,o.valToPos=(s,c,p)=>C[c].ori==0?a(s,C[c],p?ct:Z,p?pt:0):r(s,C[c],p?Dt:N,p?wt:0),o.setCursor=(s,c,p)=>{we=s.left,Te=s.top,vn(null,c,p)};function ga(s,c){Ae(Yn,Xn,Se.left=s),Ae(Yn,Eo,Se.width=c)}function ba(s,c){Ae(Yn,"top",Se.top=s),Ae(Yn,Po,Se.height=c)}let $o=T.ori==0?ga:ba,go=T.ori==1?ga:ba;function zc(){if(Ue&&ne.live)for(let s=l==2?1:0;s<w.length;s++){if(s==0&&vt)continue;let c=ne.values[s],p=0;for(let $ in c)Ft[s][p++].firstChild.nodeValue=c[$]}}function jl(s,c){if(s!=null&&(s.idxs?s.idxs.forEach((p,$)=>{me[$]=p}):Bd(s.idx)||me.fill(s.idx),ne.idx=me[0]),Ue&&ne.live){for(let p=0;p<w.length;p++)(p>0||l==1&&!vt)&&Wc(p,me[p]);zc()}St=!1,c!==!1&&Ye("setLegend")}o.setLegend=jl;function Wc(s,c){let p=w[s],$=s==0&&j==2?It:t[s],y;vt?y=p.values(o,s,c)??tn:(y=p.value(o,c==null?null:$[c],s,c),y=y==null?tn:{_:y}),ne.values[s]=y}function vn(s,c,p){ma=we,$a=Te,[we,Te]=U.move(o,we,Te),U.left=we,U.top=Te,tt&&(Bn&&qt(Bn,ze(we),0,Z,N),jn&&qt(jn,0,ze(Te),Z,N));let $,y=Be>je;Jt=be,rn=null;let _=T.ori==0?Z:N,k=T.ori==1?Z:N;if(we<0||Qe==0||y){$=U.idx=null;for(let E=0;E<w.length;E++){let P=kt[E];P!=null&&qt(P,-10,-10,Z,N)}On&&Ht(null,Kn,!0,s==null&&Ne.setSeries),ne.live&&(me.fill($),St=!0)}else{let E,P,R;l==1&&(E=T.ori==0?we:Te,P=zt(E,O),$=U.idx=Nt(P,t[0],Be,je),R=L(t[0][$],T,_,0));let M=-10,F=-10,K=0,ue=0,ce=!0,oe="",G="";for(let V=l==2?1:0;V<w.length;V++){let ke=w[V],Re=me[V],Ke=Re==null?null:l==1?t[V][Re]:t[V][1][Re],$e=U.dataIdx(o,V,$,P),Le=$e==null?null:l==1?t[V][$e]:t[V][1][$e];if(St=St||Le!=Ke||$e!=Re,me[V]=$e,V>0&&ke.show){let ht=$e==null?-10:$e==$?R:L(l==1?t[0][$e]:t[V][0][$e],T,_,0),ot=Le==null?-10:Y(Le,l==1?C[ke.scale]:C[ke.facets[1].scale],k,0);if(On&&Le!=null){let xt=T.ori==1?we:Te,Rt=We(Vt.dist(o,V,$e,ot,xt));if(Rt<Jt){let Wt=Vt.bias;if(Wt!=0){let mt=zt(xt,ke.scale),Ct=Le>=0?1:-1,Lt=mt>=0?1:-1;Lt==Ct&&(Lt==1?Wt==1?Le>=mt:Le<=mt:Wt==1?Le<=mt:Le>=mt)&&(Jt=Rt,rn=V)}else Jt=Rt,rn=V}}if(St||Fn){let xt,Rt;T.ori==0?(xt=ht,Rt=ot):(xt=ot,Rt=ht);let Wt,mt,Ct,Lt,Bt,lt,$t=!0,wn=Xe.bbox;if(wn!=null){$t=!1;let rt=wn(o,V);Ct=rt.left,Lt=rt.top,Wt=rt.width,mt=rt.height}else Ct=xt,Lt=Rt,Wt=mt=Xe.size(o,V);if(lt=Xe.fill(o,V),Bt=Xe.stroke(o,V),Fn)V==rn&&Jt<=Vt.prox&&(M=Ct,F=Lt,K=Wt,ue=mt,ce=$t,oe=lt,G=Bt);else{let rt=kt[V];rt!=null&&(Un[V]=Ct,Vn[V]=Lt,xs(rt,Wt,mt,$t),Ss(rt,lt,Bt),qt(rt,Pt(Ct),Pt(Lt),Z,N))}}}}if(Fn){let V=Vt.prox,ke=_n==null?Jt<=V:Jt>V||rn!=_n;if(St||ke){let Re=kt[0];Re!=null&&(Un[0]=M,Vn[0]=F,xs(Re,K,ue,ce),Ss(Re,oe,G),qt(Re,Pt(M),Pt(F),Z,N))}}}if(Se.show&&on)if(s!=null){let[E,P]=Ne.scales,[R,M]=Ne.match,[F,K]=s.cursor.sync.scales,ue=s.cursor.drag;if(Ge=ue._x,qe=ue._y,Ge||qe){let{left:ce,top:oe,width:G,height:V}=s.select,ke=s.scales[F].ori,Re=s.posToVal,Ke,$e,Le,ht,ot,xt=E!=null&&R(E,F),Rt=P!=null&&M(P,K);xt&&Ge?(ke==0?(Ke=ce,$e=G):(Ke=oe,$e=V),Le=C[E],ht=L(Re(Ke,F),Le,_,0),ot=L(Re(Ke+$e,F),Le,_,0),$o(Ot(ht,ot),We(ot-ht))):$o(0,_),Rt&&qe?(ke==1?(Ke=ce,$e=G):(Ke=oe,$e=V),Le=C[P],ht=Y(Re(Ke,K),Le,k,0),ot=Y(Re(Ke+$e,K),Le,k,0),go(Ot(ht,ot),We(ot-ht))):go(0,k)}else Yl()}else{let E=We(ma-pa),P=We($a-ha);if(T.ori==1){let K=E;E=P,P=K}Ge=Ze.x&&E>=Ze.dist,qe=Ze.y&&P>=Ze.dist;let R=Ze.uni;R!=null?Ge&&qe&&(Ge=E>=R,qe=P>=R,!Ge&&!qe&&(P>E?qe=!0:Ge=!0)):Ze.x&&Ze.y&&(Ge||qe)&&(Ge=qe=!0);let M,F;Ge&&(T.ori==0?(M=Gn,F=we):(M=qn,F=Te),$o(Ot(M,F),We(F-M)),qe||go(0,k)),qe&&(T.ori==1?(M=Gn,F=we):(M=qn,F=Te),go(Ot(M,F),We(F-M)),Ge||$o(0,_)),!Ge&&!qe&&($o(0,0),go(0,0))}if(Ze._x=Ge,Ze._y=qe,s==null){if(p){if(Pa!=null){let[E,P]=Ne.scales;Ne.values[0]=E!=null?zt(T.ori==0?we:Te,E):null,Ne.values[1]=P!=null?zt(T.ori==1?we:Te,P):null}yo(gr,o,we,Te,Z,N,$)}if(On){let E=p&&Ne.setSeries,P=Vt.prox;_n==null?Jt<=P&&Ht(rn,Kn,!0,E):Jt>P?Ht(null,Kn,!0,E):rn!=_n&&Ht(rn,Kn,!0,E)}}St&&(ne.idx=$,jl()),c!==!1&&Ye("setCursor")}let an=null;Object.defineProperty(o,"rect",{get(){return an==null&&bo(!1),an}});function bo(s=!1){s?an=null:(an=S.getBoundingClientRect(),Ye("syncRect",an))}function ya(s,c,p,$,y,_,k){U._lock||on&&s!=null&&s.movementX==0&&s.movementY==0||(Gl(s,c,p,$,y,_,k,!1,s!=null),s!=null?vn(null,!0,!0):vn(c,!0,!1))}function Gl(s,c,p,$,y,_,k,E,P){if(an==null&&bo(!1),bn(s),s!=null)p=s.clientX-an.left,$=s.clientY-an.top;else{if(p<0||$<0){we=-10,Te=-10;return}let[R,M]=Ne.scales,F=c.cursor.sync,[K,ue]=F.values,[ce,oe]=F.scales,[G,V]=Ne.match,ke=c.axes[0].side%2==1,Re=T.ori==0?Z:N,Ke=T.ori==1?Z:N,$e=ke?_:y,Le=ke?y:_,ht=ke?$:p,ot=ke?p:$;if(ce!=null?p=G(R,ce)?i(K,C[R],Re,0):-10:p=Re*(ht/$e),oe!=null?$=V(M,oe)?i(ue,C[M],Ke,0):-10:$=Ke*(ot/Le),T.ori==1){let xt=p;p=$,$=xt}}P&&(c==null||c.cursor.event.type==gr)&&((p<=1||p>=Z-1)&&(p=xn(p,Z)),($<=1||$>=N-1)&&($=xn($,N))),E?(pa=p,ha=$,[Gn,qn]=U.move(o,p,$)):(we=p,Te=$)}let ql={width:0,height:0,left:0,top:0};function Yl(){Bo(ql,!1)}let _a,va,wa,Sa;function ka(s,c,p,$,y,_,k){on=!0,Ge=qe=Ze._x=Ze._y=!1,Gl(s,c,p,$,y,_,k,!0,!1),s!=null&&(nt(br,Sr,xa,!1),yo($s,o,Gn,qn,Z,N,null));let{left:E,top:P,width:R,height:M}=Se;_a=E,va=P,wa=R,Sa=M}function xa(s,c,p,$,y,_,k){on=Ze._x=Ze._y=!1,Gl(s,c,p,$,y,_,k,!1,!0);let{left:E,top:P,width:R,height:M}=Se,F=R>0||M>0,K=_a!=E||va!=P||wa!=R||Sa!=M;if(F&&K&&Bo(Se),Ze.setScale&&F&&K){let ue=E,ce=R,oe=P,G=M;if(T.ori==1&&(ue=P,ce=M,oe=E,G=R),Ge&&ln(O,zt(ue,O),zt(ue+ce,O)),qe)for(let V in C){let ke=C[V];V!=O&&ke.from==null&&ke.min!=be&&ln(V,zt(oe+G,V),zt(oe,V))}Yl()}else U.lock&&(U._lock=!U._lock,vn(c,!0,s!=null));s!=null&&(Ln(br,Sr),yo(br,o,we,Te,Z,N,null))}function Bc(s,c,p,$,y,_,k){if(U._lock)return;bn(s);let E=on;if(on){let P=!0,R=!0,M=10,F,K;T.ori==0?(F=Ge,K=qe):(F=qe,K=Ge),F&&K&&(P=we<=M||we>=Z-M,R=Te<=M||Te>=N-M),F&&P&&(we=we<Gn?0:Z),K&&R&&(Te=Te<qn?0:N),vn(null,!0,!0),on=!1}we=-10,Te=-10,me.fill(null),vn(null,!0,!0),E&&(on=E)}function Ca(s,c,p,$,y,_,k){U._lock||(bn(s),Tl(),Yl(),s!=null&&yo(ys,o,we,Te,Z,N,null))}function Aa(){A.forEach(af),Pl(o.width,o.height,!0)}En(sl,to,Aa);let Jn={};Jn.mousedown=ka,Jn.mousemove=ya,Jn.mouseup=xa,Jn.dblclick=Ca,Jn.setSeries=(s,c,p,$)=>{let y=Ne.match[2];p=y(o,c,p),p!=-1&&Ht(p,$,!0,!1)},tt&&(nt($s,S,ka),nt(gr,S,ya),nt(gs,S,s=>{bn(s),bo(!1)}),nt(bs,S,Bc),nt(ys,S,Ca),Dr.add(o),o.syncRect=bo);let jo=o.hooks=e.hooks||{};function Ye(s,c,p){Hl?mo.push([s,c,p]):s in jo&&jo[s].forEach($=>{$.call(null,o,c,p)})}(e.plugins||[]).forEach(s=>{for(let c in s.hooks)jo[c]=(jo[c]||[]).concat(s.hooks[c])});let Ea=(s,c,p)=>p,Ne=Fe({key:null,setSeries:!1,filters:{pub:Ts,sub:Ts},scales:[O,w[1]?w[1].scale:null],match:[Ds,Ds,Ea],values:[null,null]},U.sync);Ne.match.length==2&&Ne.match.push(Ea),U.sync=Ne;let Pa=Ne.key,Kl=Ai(Pa);function yo(s,c,p,$,y,_,k){Ne.filters.pub(s,c,p,$,y,_,k)&&Kl.pub(s,c,p,$,y,_,k)}Kl.sub(o);function jc(s,c,p,$,y,_,k){Ne.filters.sub(s,c,p,$,y,_,k)&&Jn[s](null,c,p,$,y,_,k)}o.pub=jc;function Gc(){Kl.unsub(o),Dr.delete(o),pn.clear(),Cr(sl,to,Aa),h.remove(),pe?.remove(),Ye("destroy")}o.destroy=Gc;function Jl(){Ye("init",e,t),ra(t||e.data,!1),z[O]?zl(O,z[O]):Tl(),Fo=Se.show&&(Se.width>0||Se.height>0),gn=St=!0,Pl(e.width,e.height)}return w.forEach(oa),A.forEach(kc),n?n instanceof HTMLElement?(n.appendChild(h),Jl()):n(o,Jl):Jl(),o}Je.assign=Fe;Je.fmtNum=Fr;Je.rangeNum=il;Je.rangeLog=ul;Je.rangeAsinh=Nr;Je.orient=Tn;Je.pxRatio=fe;Je.join=Qd;Je.fmtDate=Vr,Je.tzDate=iu;Je.sync=Ai;{Je.addGap=Bu,Je.clipGaps=hl;let e=Je.paths={points:Ri};e.linear=Mi,e.stepped=qu,e.bars=Yu,e.spline=Ju}var co=["#1f6feb","#d97706","#b91c1c","#15803d"];function Ui(e,t,n){let o=jt(null);return gt(()=>{let l=o.current;if(!l)return;let a=()=>Math.max(280,l.clientWidth),r=new Je({...e(),width:a(),height:240},t,l),i=new ResizeObserver(()=>r.setSize({width:a(),height:240}));return i.observe(l),()=>{i.disconnect(),r.destroy()}},n),o}function bl({title:e,labels:t,series:n,labelHeading:o="provider"}){let l=t.map((u,h)=>h),a=[l,...n.map(u=>u.values)],r=n.length,i=Ui(()=>({title:e,scales:{x:{time:!1,range:[-.5,t.length-.5]},y:{range:(u,h,m)=>[Math.min(0,h*1.1),Math.max(1,m*1.1)]}},axes:[{splits:()=>l,values:(u,h)=>h.map(m=>t[m]??""),grid:{show:!1}},{}],series:[{},...n.map((u,h)=>({label:u.label,stroke:co[h%co.length],fill:`${co[h%co.length]}cc`,paths:Je.paths.bars({size:[.8/r,60],align:r===2?h===0?-1:1:0}),points:{show:!1}}))]}),a,[JSON.stringify(a),e]);return d`<figure class="chart">
    <div ref=${i} role="img" aria-label=${e}></div>
    <figcaption>
      <table>
        <caption class="visually-hidden">${e}</caption>
        <thead><tr><th scope="col">${o}</th>${n.map(u=>d`<th scope="col">${u.label}</th>`)}</tr></thead>
        <tbody>${t.map((u,h)=>d`<tr><th scope="row">${u}</th>${n.map(m=>d`<td>${m.values[h]}</td>`)}</tr>`)}</tbody>
      </table>
    </figcaption>
  </figure>`}function Lo({title:e,points:t,series:n,unit:o="",max:l,span:a}){let r=t.map(f=>Date.parse(f.at)/1e3),i=(f,g)=>f[g.key]===void 0?0:f[g.key],u=[r,...n.map(f=>t.map(g=>i(g,f)))],h=f=>f===null?"—":`${f}${o}`,m=Ui(()=>({title:e,scales:{...a?{x:{time:!0,range:a.map(f=>Date.parse(f)/1e3)}}:{},y:{range:(f,g,b)=>[0,l??Math.max(1,b*1.1)]}},...o?{axes:[{},{values:(f,g)=>g.map(b=>`${b}${o}`)}]}:{},series:[{},...n.map((f,g)=>({label:f.label,stroke:co[g%co.length],width:2,...u[g+1].includes(null)?{points:{show:!0,size:6}}:{}}))]}),u,[JSON.stringify(u),e,o,l,JSON.stringify(a)]);return d`<figure class="chart">
    <div ref=${m} role="img" aria-label=${e}></div>
    <figcaption>
      <details>
        <summary>The numbers</summary>
        <table>
          <caption class="visually-hidden">${e}</caption>
          <thead><tr><th scope="col">from</th>${n.map(f=>d`<th scope="col">${f.label}</th>`)}</tr></thead>
          <tbody>${t.map(f=>d`<tr><th scope="row">${new Date(f.at).toLocaleString()}</th>${n.map(g=>d`<td>${h(i(f,g))}</td>`)}</tr>`)}</tbody>
        </table>
      </details>
    </figcaption>
  </figure>`}function Vi({me:e}){let t=te(async()=>{let[n,...o]=await Promise.all([Gt("/stores",{},l=>l.code),...De.map(l=>q(`/components/${l}`))]);return{stores:n,versions:Object.fromEntries(De.map((l,a)=>[l,o[a]]))}},[]);return d`<h1>Replay</h1>
    <p>Re-runs a store's recorded charges with the versions you choose and shows what would change. Nothing is stored or sent.</p>
    ${xe(e,"tester")?d`<${le} state=${t} what="stores and versions">${n=>d`<${sf} ...${n} />`}<//>`:d`<p role="note">Your role (${e.role}) may not run replays: a tester may.</p>`}`}function sf({stores:e,versions:t}){let[n,o]=I(e.find(v=>v.mode==="SHADOW")?.code??e[0]?.code??""),[l,a]=I({policy:"",provider:"",economics:""}),[r,i]=I(""),[u,h]=I(""),[m,f]=I(""),[g,b]=I(null),S=ge();async function x(v){v.preventDefault();let D=Object.fromEntries(Object.entries(l).filter(([,A])=>A)),w={store:n,components:D};r&&(w.since=new Date(r).toISOString()),u&&(w.until=new Date(u).toISOString()),m&&(w.limit=Number(m)),b(null),await S.run(()=>rs(w,b))}return d`<form class="stack" onSubmit=${x} aria-label="Replay settings">
      <label>Store
        <select value=${n} onChange=${v=>o(v.target.value)}>
          ${e.map(v=>d`<option value=${v.code}>${v.code} (${v.mode})</option>`)}
        </select>
      </label>
      <fieldset>
        <legend>Versions to try</legend>
        ${De.map(v=>d`<label>${v}
          <select value=${l[v]} onChange=${D=>a({...l,[v]:D.target.value})}>
            <option value="">as recorded</option>
            <option value="bundled">bundled</option>
            ${t[v].map(D=>d`<option value=${D.version}>${D.version.slice(0,12)} ${D.label?`${D.label} `:""}(${D.source})</option>`)}
          </select>
        </label>`)}
      </fieldset>
      <div class="row">
        <label>Since <input type="datetime-local" value=${r} onInput=${v=>i(v.target.value)} /></label>
        <label>Until <input type="datetime-local" value=${u} onInput=${v=>h(v.target.value)} /></label>
        <label>At most this many charges <input type="number" min="1" max="100000" value=${m} onInput=${v=>f(v.target.value)} placeholder="10000" /></label>
      </div>
      <button type="submit" class="primary" disabled=${S.busy||!n}>Run the replay</button>
    </form>
    <${se} error=${S.error} />
    ${S.busy?d`<p role="status">${g?d`Replaying ${g.replayed} of ${g.total} charges <progress value=${g.replayed} max=${Math.max(g.total,1)}></progress>`:"Replaying…"}</p>`:null}
    ${S.result?d`<${cf} report=${S.result} />`:null}`}function cf({report:e}){return d`<section aria-labelledby="replay-report" class="report">
    <h2 id="replay-report">Replay of ${e.store}</h2>
    <dl class="facts">
      <dt>Replayed</dt><dd>${e.replayed} charges</dd>
      <dt>Changed</dt><dd>${e.changed}</dd>
      <dt>Unchanged</dt><dd>${e.unchanged}</dd>
      <dt>Candidate errors</dt><dd>${e.errors}</dd>
      <dt>Unreadable</dt><dd>${e.unreadable}</dd>
      <${qr} fee=${e.feeDeltaCentavos} net=${e.netDeltaCentavos} />
      <dt>Took</dt><dd>${e.durationMs} ms</dd>
    </dl>
    <${Yr} before=${e.providersBefore} after=${e.providersAfter} empty="No charges in this window." />
    <${Mo} title="Changes by kind" counts=${e.changesByKind} />
    <${Mo} title="Candidate errors by kind" counts=${e.errorsByKind} />
    <h3>Changed charges</h3>
    ${e.firstChanged.length===0?d`<p class="muted">No charge changed.</p>`:d`<div class="scroll"><table>
          <caption>The first ${e.firstChanged.length} changed charges, oldest first</caption>
          <thead><tr><th scope="col">Payment</th><th scope="col">Created</th><th scope="col">What changed</th><th scope="col">Before</th><th scope="col">After</th></tr></thead>
          <tbody>${e.firstChanged.map(t=>d`<tr>
            <th scope="row"><a href=${`#/payments/${t.paymentIntentId}`}><code title=${t.paymentIntentId}>…${t.paymentIntentId.slice(-12)}</code></a></th>
            <td>${X(t.createdAt)}</td>
            <td>${t.kinds.join(", ")}</td>
            <td>${Dn(t.before)}</td><td>${Dn(t.after)}</td>
          </tr>`)}</tbody>
        </table></div>`}
    <${ut} value=${e} summary="The report as JSON" />
  </section>`}function qr({fee:e,net:t}){return d`<dt>Fee delta</dt><dd>${mr(e)}</dd>
    <dt>Net delta</dt><dd>${mr(t)}</dd>`}function Yr({before:e,after:t,empty:n,title:o="Charges per provider, before and after",names:l=["before","after"]}){let a=[...new Set([...Object.keys(e??{}),...Object.keys(t??{})])].sort();return a.length?d`<${bl} title=${o}
    labels=${a}
    series=${[{label:l[0],values:a.map(r=>e?.[r]??0)},{label:l[1],values:a.map(r=>t?.[r]??0)}]} />`:d`<p class="muted">${n}</p>`}function Mo({title:e,counts:t}){let n=Object.entries(t??{}).filter(([,o])=>o>0);return n.length?d`<h3>${e}</h3><ul>${n.map(([o,l])=>d`<li><code>${o}</code>: ${l}</li>`)}</ul>`:null}function Dn(e){return e?e.status==="resolved"?d`${e.gatewayAlias} (${e.releaseClass}) · fee ${at(e.feeCentavos)}`:d`${e.status} at ${e.step}: <code>${e.code}</code>`:"—"}function Hi({store:e,step:t}){let n=te(()=>Gt("/stores",{},o=>o.code),[]);return d`<h1>Shadow comparison</h1>
    <p>A shadow candidate runs beside the active version on every new charge, off the request path; here is how often it decides differently.</p>
    <${le} state=${n} what="the stores">${o=>d`<${df} key=${`${e}/${t}`} stores=${o} initialStore=${e} initialStep=${t} />`}<//>`}function df({stores:e,initialStore:t,initialStep:n}){let o=e.find(u=>u.code===t)??e.find(u=>u.mode==="SHADOW")??e[0],[l,a]=I(o?.code??""),[r,i]=I(De.includes(n)?n:"provider");return d`<form class="row" aria-label="Which comparison" onSubmit=${u=>u.preventDefault()}>
      <label>Store
        <select value=${l} onChange=${u=>a(u.target.value)}>
          ${e.map(u=>d`<option value=${u.code}>${u.code}</option>`)}
        </select>
      </label>
      <label>Step
        <select value=${r} onChange=${u=>i(u.target.value)}>
          ${De.map(u=>d`<option value=${u}>${u}</option>`)}
        </select>
      </label>
    </form>
    ${l?d`<${uf} key=${`${l}/${r}`} store=${l} step=${r} />`:null}`}function uf({store:e,step:t}){let n=te(()=>q(`/stores/${encodeURIComponent(e)}/components/${t}/shadow`),[e,t]);return d`<${le} state=${n} what="the comparison">${o=>d`
    <section aria-labelledby="shadow-title" class="report">
      <h2 id="shadow-title">${o.store} · ${o.step}</h2>
      <div class="row"><button type="button" onClick=${n.reload}>Refresh</button></div>
      ${n.error?d`<${se} error=${n.error} />`:null}
      <dl class="facts">
        <dt>Active</dt><dd><${Me} value=${o.active} /></dd>
        <dt>Candidate</dt><dd>${o.candidate?d`<${Me} value=${o.candidate} />`:d`none attached: set one on the <a href=${`#/stores/${encodeURIComponent(o.store)}`}>store</a>`}</dd>
        <dt>Since</dt><dd>${X(o.since)}</dd>
        <dt>Compared</dt><dd>${o.charges} charges</dd>
        <dt>Changed</dt><dd>${o.changed} (${Zn(ff(o))} of the charges)</dd>
        <dt>Unchanged</dt><dd>${o.unchanged}</dd>
        <dt>Candidate errors</dt><dd>${o.errors}</dd>
        <${qr} fee=${o.feeDeltaCentavos} net=${o.netDeltaCentavos} />
      </dl>
      <p class="muted">The deltas are the candidate's minus the active version's, summed over the compared charges both resolved.</p>
      <${Yr} before=${o.providersBefore} after=${o.providersAfter}
        title="Charges per provider, active and candidate" names=${["active","candidate"]}
        empty="No compared charge to chart per provider yet." />
      ${Array.isArray(o.series)&&o.series.length?d`<${Lo} title="Compared charges over time" points=${o.series} span=${pf(o)}
            series=${[{key:"charges",label:"charges"},{key:"changed",label:"changed"},{key:"errors",label:"errors"}]} />`:d`<p class="muted">No comparisons over time yet.</p>`}
      <${Mo} title="Changes by kind" counts=${o.changesByKind} />
      <${Mo} title="Candidate errors by kind" counts=${o.errorsByKind} />
      <h3>Latest differences</h3>
      ${o.recent.length===0?d`<p class="muted">No difference recorded.</p>`:d`<div class="scroll"><table>
            <thead><tr><th scope="col">Payment</th><th scope="col">When</th><th scope="col">What changed</th><th scope="col">Active</th><th scope="col">Candidate</th></tr></thead>
            <tbody>${o.recent.map(l=>d`<tr>
              <th scope="row"><a href=${`#/payments/${l.paymentIntentId}`}><code title=${l.paymentIntentId}>…${l.paymentIntentId.slice(-12)}</code></a></th>
              <td>${X(l.at)}</td><td>${l.kinds.join(", ")}</td><td>${Dn(l.before)}</td><td>${Dn(l.after)}</td>
            </tr>`)}</tbody>
          </table></div>`}
    </section>`}<//>`}function ff(e){return typeof e.changedShare=="number"?e.changedShare:e.charges?e.changed/e.charges:0}function pf(e){if(!e.bucketSeconds)return;let t=e.series[0].at,n=Date.parse(e.series[e.series.length-1].at)+e.bucketSeconds*1e3;return[t,new Date(n).toISOString()]}function zi(){let e=te(async()=>{let[t,n]=await Promise.all([q("/providers"),q("/gateways")]);return{providers:t,gateways:n}},[]);return d`<h1>Providers</h1>
    <${le} state=${e} what="the providers">${({providers:t,gateways:n})=>d`
      ${t.length===0?d`<p class="muted">No provider is configured.</p>`:null}
      <div class="cards">${t.map(o=>d`<article class="card" aria-labelledby=${`provider-${o.code}`}>
        <h2 id=${`provider-${o.code}`}>${o.name} <code>${o.code}</code></h2>
        <dl class="facts">
          <dt>Status</dt><dd><span class=${`badge ${o.active?"ok":"off"}`}>${o.active?"active":"inactive"}</span></dd>
          <dt>Health</dt><dd>${yl(o.health)}</dd>
          <dt>API</dt><dd><code>${o.apiBaseUrl}</code></dd>
          <dt>Client id</dt><dd><code>${o.clientId}</code></dd>
          <dt>Client certificate</dt><dd>${o.tls?.clientCertificate?`${o.tls.clientCertificate.subject}, until ${X(o.tls.clientCertificate.notAfter)}`:"none"}</dd>
          <dt>Private CAs</dt><dd>${o.tls?.caCertificates?.length??0}</dd>
        </dl>
      </article>`)}</div>
      <h2>Gateways</h2>
      <div class="scroll"><table>
        <thead><tr><th scope="col">Gateway</th><th scope="col">Provider</th><th scope="col">Release class</th><th scope="col">Fee terms</th><th scope="col">Status</th><th scope="col">Health</th></tr></thead>
        <tbody>${n.map(o=>d`<tr>
          <th scope="row"><code>${o.gatewayAlias}</code></th><td>${o.providerCode}</td><td>${o.releaseClass}</td>
          <td>${hf(o.feeTerms)}</td>
          <td><span class=${`badge ${o.active?"ok":"off"}`}>${o.active?"active":"inactive"}</span></td>
          <td>${yl(o.health)}</td>
        </tr>`)}</tbody>
      </table></div>`}<//>`}function hf(e){if(!e)return"—";let t=e.maxFeeCentavos===null||e.maxFeeCentavos===void 0?"no cap":`cap ${at(e.maxFeeCentavos)}`;return`${(e.mdrBps/100).toFixed(2)} % + ${at(e.fixedCentavos)}, min ${at(e.minFeeCentavos)}, ${t}`}function yl(e){if(!e)return d`<span class="muted">not reported</span>`;let t=e.successRateBps!==void 0?`${(e.successRateBps/100).toFixed(1)} % ok`:null,n=e.latencyP50Ms!==void 0?`p50 ${e.latencyP50Ms} ms`:null;return d`<span class=${`badge ${e.available?"ok":"off"}`}>${e.available?"available":"unavailable"}</span>
    ${[t,n,e.samples!==void 0?`${e.samples} calls`:null].filter(Boolean).join(" · ")}`}var mf=["SHADOW_ONLY","SCHEDULED","PENDING","SUCCEEDED","FAILED","CANCELED"],Bi={IMMEDIATE:"Immediate",DUE_DATE:"Due date",RECURRING:"Recurring"},Kr={reference:"",store:"",merchant:"",status:"",kind:"",createdFrom:"",createdTo:""};function ji(){let[e,t]=I(Kr),[n,o]=I(Kr),[l,a]=I([]),r=te(async()=>{let m={...n,limit:20};for(let g of["createdFrom","createdTo"])m[g]&&(m[g]=new Date(m[g]).toISOString());let f=await q("/payment-intents",m);return a([]),f},[JSON.stringify(n)]),i=ge(),u=m=>f=>t({...e,[m]:f.target.value}),h=[...r.data??[],...l];return d`<h1>Payments</h1>
    <${Jr} />
    <form class="filters" role="search" aria-label="Search payments" onSubmit=${m=>{m.preventDefault(),Kr=e,o({...e})}}>
      <label>Reference <input value=${e.reference} onInput=${u("reference")} /></label>
      <label>Store <input value=${e.store} onInput=${u("store")} /></label>
      <label>Merchant <input value=${e.merchant} onInput=${u("merchant")} /></label>
      <label>Status
        <select value=${e.status} onChange=${u("status")}>
          <option value="">any</option>
          ${mf.map(m=>d`<option value=${m}>${m}</option>`)}
        </select>
      </label>
      <label>Kind
        <select value=${e.kind} onChange=${u("kind")}>
          <option value="">All</option>
          ${Object.entries(Bi).map(([m,f])=>d`<option value=${m}>${f}</option>`)}
        </select>
      </label>
      <label>Created from <input type="datetime-local" value=${e.createdFrom} onInput=${u("createdFrom")} /></label>
      <label>Created before <input type="datetime-local" value=${e.createdTo} onInput=${u("createdTo")} /></label>
      <button type="submit" class="primary">Search</button>
    </form>
    <${se} error=${i.error} />
    <${le} state=${r} what="payments">${()=>d`
      ${h.length===0?d`<p role="status">No payment matches.</p>`:d`<${vl} intents=${h} caption=${`${h.length} payments, newest first`} />`}
      ${h.length&&h.length%20===0?d`<button type="button" disabled=${i.busy} onClick=${async()=>{let m={...n,limit:20,after:h[h.length-1].paymentIntentId};for(let g of["createdFrom","createdTo"])m[g]&&(m[g]=new Date(m[g]).toISOString());let f=await i.run(()=>q("/payment-intents",m));f&&a([...l,...f])}}>More payments</button>`:null}`}<//>`}function vl({intents:e,caption:t,extra:n}){return d`<div class="scroll"><table>
    <caption>${t}</caption>
    <thead><tr><th scope="col">Reference</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col">Store</th><th scope="col">Provider</th><th scope="col">Created</th>
      ${n?d`<th scope="col">${n.label}</th>`:null}</tr></thead>
    <tbody>${e.map(o=>d`<tr>
      <th scope="row"><a href=${`#/payments/${o.paymentIntentId}`}>${o.reference||o.paymentIntentId}</a></th>
      <td>${Ce(o.amount)}</td><td><span class=${`badge ${o.status}`}>${o.status}</span></td>
      <td>${o.store?.code}</td><td>${o.routing?.providerCode??o.provider?.code??"—"}</td><td>${X(o.createdAt)}</td>
      ${n?d`<td>${n.cell(o)}</td>`:null}
    </tr>`)}</tbody>
  </table></div>`}var $f={paymentIntentId:"payment id",txid:"txid",endToEndId:"endToEndId"};function Jr(){let[e,t]=I(""),[n,o]=I(""),l=ge();async function a(i){i.preventDefault();let u=e.trim();if(!u)return;o(u);let h=await l.run(()=>q("/lookup",{q:u}));h?.length===1&&(location.hash=`#/payments/${encodeURIComponent(h[0].paymentIntentId)}`)}let r=l.result;return d`<form class="row" role="search" aria-label="Find a payment" onSubmit=${a}>
      <label>Payment id, txid or endToEndId
        <input type="search" value=${e} onInput=${i=>t(i.target.value)} maxLength="64" size="40"
          autocomplete="off" spellcheck="false" aria-describedby="lookup-help" />
      </label>
      <button type="submit" disabled=${l.busy}>Find</button>
      <span id="lookup-help" class="muted">One match opens the payment.</span>
    </form>
    <${se} error=${l.error} />
    ${r?.length===0?d`<p role="status">Nothing matches <code>${n}</code>: no payment has it as its id, txid or endToEndId.</p>`:null}
    ${r?.length>1?d`<${vl} intents=${r} caption=${`${r.length} payments match ${n}`}
      extra=${{label:"Matched by",cell:i=>$f[i.matchedBy]??i.matchedBy}} />`:null}`}function Gi({id:e,me:t}){let n=te(()=>q(`/payment-intents/${e}`),[e]),o=te(()=>q(`/payment-intents/${e}/trace`),[e]),l=n.data?.reference;return d`<h1>Payment ${l?d`<q>${l}</q>`:d`<code>${e}</code>`}</h1>
    <p><a href="#/payments">Back to the search</a></p>
    <${le} state=${n} what="the payment">${a=>d`<${bf} intent=${a} />
      ${a.kind==="DUE_DATE"?d`<${vf} intent=${a} />`:null}
      ${a.kind==="RECURRING"?d`<${wf} intent=${a} />`:null}`}<//>
    <section aria-labelledby="trace-title">
      <h2 id="trace-title">Decision trace</h2>
      <${le} state=${o} what="the trace">${a=>d`<${Sf} trace=${a} />`}<//>
    </section>
    <${gf} id=${e} />
    <${kf} id=${e} me=${t} />`}function gf({id:e}){let t=te(()=>q(`/payment-intents/${e}/refunds`),[e]);return d`<section aria-labelledby="refunds-title">
    <h2 id="refunds-title">Refunds</h2>
    <${le} state=${t} what="the refunds">${n=>n.length===0?d`<p class="muted">No refund of this payment.</p>`:d`<div class="scroll"><table>
          <caption>The refunds of this payment, oldest first</caption>
          <thead><tr><th scope="col">Refund</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col">Reason</th><th scope="col">Created</th></tr></thead>
          <tbody>${n.map(o=>d`<tr>
            <th scope="row"><code>${o.refundId}</code></th><td>${Ce(o.amount)}</td>
            <td><span class=${`badge ${o.status}`}>${o.status}</span></td><td>${o.reason??""}</td><td>${X(o.createdAt)}</td>
          </tr>`)}</tbody>
        </table></div>`}<//>
  </section>`}function bf({intent:e}){return d`<section aria-labelledby="intent-title">
    <h2 id="intent-title">The intent</h2>
    <dl class="facts">
      <dt>Id</dt><dd><code>${e.paymentIntentId}</code></dd>
      <dt>Status</dt><dd><span class=${`badge ${e.status}`}>${e.status}</span></dd>
      <dt>Kind</dt><dd>${Bi[e.kind]??e.kind??"—"}</dd>
      <dt>Amount</dt><dd>${Ce(e.amount)}${e.amountRefunded?` (refunded ${Ce(e.amountRefunded)})`:""}</dd>
      <dt>Store</dt><dd>${e.store?.code} · ${e.merchant}</dd>
      <dt>Route</dt><dd>${e.routing?`${e.routing.policy??""} → ${e.routing.gatewayAlias??"—"} (${e.routing.releaseClass??""})`:"—"}</dd>
      <dt>Fee / net</dt><dd>${e.economics?`${Ce(e.economics.feeAmount)} / ${Ce(e.economics.netAmount)}, settles ${e.economics.settlementDate}`:"—"}</dd>
      <dt>At the PSP</dt><dd>${e.provider?d`${e.provider.code} <code>${e.provider.paymentId??"not paid yet"}</code>`:"—"}</dd>
      ${e.pix?.txid?d`<dt>txid</dt><dd><code>${e.pix.txid}</code></dd>`:null}
      ${e.failure?d`<dt>Failure</dt><dd><code>${e.failure.code}</code> ${e.failure.message}</dd>`:null}
      <dt>Created</dt><dd>${X(e.createdAt)}</dd>
      ${e.completedAt?d`<dt>Completed</dt><dd>${X(e.completedAt)}</dd>`:null}
    </dl>
  </section>`}function _l(e,t){return String(e).startsWith("PERCENT")?`${t} %`:Ce(t)}function qi(e){return String(e).replace(/^(PERCENT|AMOUNT|FIXED)_?/,"").toLowerCase().replace(/_/g," ")}function Wi(e){return`${_l(e.type,e.value)} (${e.type})`}function yf(e){return`${_l(e.type,e.value)} ${qi(e.type)}`}function _f(e){return Array.isArray(e.dates)?e.dates.map(t=>`${_l(e.type,t.value)} until ${t.date}`).join("; "):`${_l(e.type,e.value)} ${qi(e.type)}`}function vf({intent:e}){let t=e.amountComponents,n=o=>Ce(o??0);return d`<section aria-labelledby="invoice-title">
    <h2 id="invoice-title">Invoice</h2>
    <dl class="facts">
      <dt>Due date</dt><dd>${e.dueDate??"—"}</dd>
      <dt>Payable after it</dt><dd>${e.daysAfterDue??0} days</dd>
      ${e.fine?d`<dt>Fine</dt><dd>${Wi(e.fine)}</dd>`:null}
      ${e.interest?d`<dt>Interest</dt><dd>${yf(e.interest)}</dd>`:null}
      ${e.abatement?d`<dt>Abatement</dt><dd>${Wi(e.abatement)}</dd>`:null}
      ${e.discount?d`<dt>Discount</dt><dd>${_f(e.discount)}</dd>`:null}
      ${e.amountPaid!==void 0&&e.amountPaid!==null?d`<dt>Paid</dt><dd>${Ce(e.amountPaid)}${t?` = original ${n(t.original)} + fine ${n(t.fine)} + interest ${n(t.interest)} − abatement ${n(t.abatement)} − discount ${n(t.discount)}`:""}</dd>`:null}
    </dl>
  </section>`}function wf({intent:e}){let t=Array.isArray(e.attempts)?e.attempts:[];return d`<section aria-labelledby="recurring-title">
    <h2 id="recurring-title">Recurring charge</h2>
    <p class="muted">Pix Automático: the payer's bank debits it under the mandate on its due date (the next
      business day when that is not one); there is no code to scan.</p>
    <dl class="facts">
      <dt>Mandate</dt><dd>${e.mandateId?d`<a href=${`#/mandates/${e.mandateId}`}>Mandate <code>${e.mandateId}</code></a>`:"—"}</dd>
      <dt>Due date</dt><dd>${e.dueDate??"—"}</dd>
    </dl>
    <h3>Attempts</h3>
    ${t.length===0?d`<p class="muted">No attempt yet${e.status==="SHADOW_ONLY"?": a SHADOW store's charge never reaches a payer's bank":""}.</p>`:d`<div class="scroll"><table>
          <caption>The attempts at the payer's bank, oldest first</caption>
          <thead><tr><th scope="col">Date</th><th scope="col">Status</th><th scope="col">Failure code</th><th scope="col">Failure</th></tr></thead>
          <tbody>${t.map(n=>d`<tr>
            <th scope="row" class="nowrap">${n.date}</th>
            <td><span class=${`badge ${n.status}`}>${n.status}</span></td>
            <td>${n.failure?.code?d`<code>${n.failure.code}</code>`:""}</td><td>${n.failure?.message??""}</td>
          </tr>`)}</tbody>
        </table></div>`}
  </section>`}function Qr({trace:e}){let t=De.map(l=>e[l]).filter(Boolean),n=Array.isArray(e.routes)?e.routes:[],o=e.stopped;return d`
    <ol class="trace">${t.map(l=>d`<li>
      <h3>${l.step}</h3>
      <p>
        Version <${Me} value=${l.component} /> · fuel ${l.fuelUsed} · ${l.durationUs} µs
        ${l.error?d` · <strong>error</strong> <code>${l.error.code??JSON.stringify(l.error)}</code>`:""}
      </p>
      ${l.log?d`<pre class="log" tabindex="0">${l.log}</pre>`:null}
      <${ut} value=${l.output} summary=${`${l.step} output`} />
      <${ut} value=${l.input} summary=${`${l.step} input`} />
    </li>`)}</ol>
    ${o?d`<p role="note">Stopped at the <strong>${o.step}</strong> step (version <${Me} value=${o.component} />):
      <code>${o.code}</code> ${o.message}</p>
      ${o.input!==void 0?d`<${ut} value=${o.input} summary=${`${o.step} input`} />`:null}`:null}
    ${n.length?d`<h3>Routes, in order</h3><div class="scroll"><table>
      <caption>The gateways the chain ranked for this charge</caption>
      <thead><tr><th scope="col">#</th><th scope="col">Gateway</th><th scope="col">Provider</th><th scope="col">Release class</th><th scope="col">Fee</th><th scope="col">Net</th><th scope="col">Why</th></tr></thead>
      <tbody>${n.map((l,a)=>d`<tr>
        <td>${a+1}</td><th scope="row"><code>${l.gateway?.gatewayAlias}</code></th><td>${l.gateway?.providerCode}</td>
        <td>${l.gateway?.releaseClass}</td><td>${at(l.quote?.feeCentavos)}</td><td>${at(l.quote?.netCentavos)}</td><td>${l.gateway?.reason??""}</td>
      </tr>`)}</tbody>
    </table></div>`:null}`}function Sf({trace:e}){let t=Array.isArray(e.pspCalls)?e.pspCalls:[];return d`<${Qr} trace=${e} />
    <h3>PSP calls</h3>
    ${t.length===0?d`<p class="muted">No PSP was called for this payment.</p>`:d`<div class="scroll"><table>
          <caption>The calls made to PSPs for this payment, in order</caption>
          <thead><tr><th scope="col">When</th><th scope="col">Provider</th><th scope="col">Gateway</th><th scope="col">Call</th><th scope="col">Outcome</th><th scope="col">Took</th><th scope="col">Error</th></tr></thead>
          <tbody>${t.map(n=>d`<tr>
            <td>${X(new Date(n.at).toISOString())}</td><td>${n.providerCode}</td><td>${n.gatewayAlias??"—"}</td>
            <td><code>${n.operation}</code></td><td>${n.outcome}</td><td>${n.durationMs} ms</td><td>${n.error??""}</td>
          </tr>`)}</tbody>
        </table></div>`}
    <${ut} value=${e} summary="The whole trace as JSON" />`}function kf({id:e,me:t}){let n=te(()=>q(`/payment-intents/${e}/deliveries`),[e]),o=ge();return d`<section aria-labelledby="deliveries-title">
    <h2 id="deliveries-title">Webhook deliveries</h2>
    <${se} error=${o.error} />
    ${o.result?d`<p role="status">The delivery is being sent again.</p>`:null}
    ${d`<${le} state=${n} what="the deliveries">${l=>l.length?d`<ul class="cards">${l.map(a=>d`<li class="card">
            <h3>${a.event} <span class=${`badge ${a.status}`}>${a.status}</span></h3>
            <p>Delivery <code>${a.deliveryId}</code> to endpoint <code>${a.endpointId}</code></p>
            ${a.nextAttemptAt?d`<p>Next attempt ${X(a.nextAttemptAt)}</p>`:null}
            <div class="scroll"><table>
              <caption>Attempts</caption>
              <thead><tr><th scope="col">#</th><th scope="col">When</th><th scope="col">HTTP</th><th scope="col">Took</th><th scope="col">Error</th></tr></thead>
              <tbody>${a.attempts.map(r=>d`<tr>
                <td>${r.attempt}</td><td>${X(r.attemptedAt)}</td><td>${r.httpStatus??"—"}</td>
                <td>${r.durationMs} ms</td><td>${r.error??""}</td>
              </tr>`)}</tbody>
            </table></div>
            ${xe(t,"operator")?d`<button type="button" disabled=${o.busy}
              onClick=${()=>o.run(()=>At(`/webhook-deliveries/${a.deliveryId}/resend`)).then(r=>r!==void 0&&n.reload())}>
              Resend ${a.event}</button>`:null}
          </li>`)}</ul>`:d`<p class="muted">No webhook delivery for this payment.</p>`}<//>`}
  </section>`}var wl=20,xf=["PENDING_AUTHORIZATION","ACTIVE","REJECTED","EXPIRED","CANCELED","FAILED","SHADOW_ONLY"],Ki={WEEKLY:"Weekly",MONTHLY:"Monthly",QUARTERLY:"Quarterly",SEMIANNUAL:"Every six months",ANNUAL:"Yearly"},Cf={QR:"QR code that authorises",QR_WITH_FIRST_PAYMENT:"QR code that pays the first payment and authorises",PUSH:"Request to the payer's bank app"},Af={NONE:"No retry",UP_TO_3_IN_7_DAYS:"Up to 3 retries within 7 days of the due date"},Ef={PAYER:"the payer",PAYER_PSP:"the payer's bank",MERCHANT:"the merchant",MERCHANT_PSP:"the merchant's PSP",UNKNOWN:"someone the standard names otherwise"},Zr={merchant:"",store:"",status:"",reference:""};function Yi(e){return Object.fromEntries(Object.entries(e).map(([t,n])=>[t,n.trim()]))}function Pf(e){return e.amount!==void 0&&e.amount!==null?Ce(e.amount):e.minimumAmount!==void 0&&e.minimumAmount!==null?`at least ${Ce(e.minimumAmount)}`:"named each cycle"}function Ji(){let[e,t]=I(Zr),[n,o]=I(()=>Yi(Zr)),[l,a]=I([]),[r,i]=I(!1),u=ge(),h=te(async()=>{let g=await q("/mandates",{...n,limit:wl});return a([]),i(g.length<wl),g},[JSON.stringify(n)]),m=g=>b=>t({...e,[g]:b.target.value}),f=[...h.data??[],...l];return d`<h1>Mandates</h1>
    <p>Every merchant's Pix Automático mandates: what each payer authorised (or was asked to), newest first. Each one
      links to its detail, with its charges by cycle; a mandate that pays its first cycle with the authorisation links
      to that payment.</p>
    <form class="filters" role="search" aria-label="Search mandates" onSubmit=${g=>{g.preventDefault(),Zr=e,o(Yi(e))}}>
      <label>Merchant <input value=${e.merchant} onInput=${m("merchant")} placeholder="every merchant" /></label>
      <label>Store <input value=${e.store} onInput=${m("store")} /></label>
      <label>Status
        <select value=${e.status} onChange=${m("status")}>
          <option value="">any</option>
          ${xf.map(g=>d`<option value=${g}>${g}</option>`)}
        </select>
      </label>
      <label>Reference <input value=${e.reference} onInput=${m("reference")} maxLength="35" /></label>
      <button type="submit" class="primary">Search</button>
    </form>
    <${le} state=${h} what="mandates">${()=>f.length===0?d`<p role="status">No mandate matches.</p>`:d`<div class="scroll"><table>
          <caption>${f.length} ${f.length===1?"mandate":"mandates"}${r?"":" so far"}, newest first</caption>
          <thead><tr><th scope="col">Reference</th><th scope="col">Status</th><th scope="col">Merchant</th><th scope="col">Store</th>
            <th scope="col">Payer</th><th scope="col">Frequency</th><th scope="col">Amount</th><th scope="col">Journey</th><th scope="col">Created</th></tr></thead>
          <tbody>${f.map(g=>d`<tr>
            <th scope="row"><a href=${`#/mandates/${g.mandateId}`}>${g.reference||g.mandateId}</a></th>
            <td><span class=${`badge ${g.status}`}>${g.status}</span></td>
            <td>${g.merchant}</td><td>${g.store?.code}</td><td>${g.payer?.name}</td>
            <td>${Ki[g.frequency]??g.frequency}</td><td class="nowrap">${Pf(g)}</td>
            <td><code>${g.journey}</code></td><td>${X(g.createdAt)}</td>
          </tr>`)}</tbody>
        </table></div>`}<//>
    <${se} error=${u.error} />
    ${h.data&&!r?d`<button type="button" disabled=${u.busy} onClick=${async()=>{let g=await u.run(()=>q("/mandates",{...n,limit:wl,after:f[f.length-1].mandateId}));g&&(a([...l,...g]),i(g.length<wl))}}>More mandates</button>`:null}`}function Qi({id:e}){let t=te(()=>q(`/mandates/${encodeURIComponent(e)}`),[e]),n=t.data?.reference;return d`<h1>Mandate ${n?d`<q>${n}</q>`:d`<code>${e}</code>`}</h1>
    <p><a href="#/mandates">Back to the mandates</a></p>
    <${le} state=${t} what="the mandate">${o=>d`<${If} mandate=${o} />
      <${Df} charges=${o.charges} />
      <${ut} value=${o.metadata} summary="Metadata, as the merchant sent it" />
      <${ut} value=${o} summary="The whole mandate as JSON" />`}<//>`}function Tf(e){if(!Array.isArray(e)||e.length===0)return d`<span class="muted">none yet</span>`;let t=e[e.length-1];return d`${e.length} · last on ${t.date} <span class=${`badge ${t.status}`}>${t.status}</span>
    ${t.failure?.code?d` <code>${t.failure.code}</code>`:null}`}function Df({charges:e}){let t=[...Array.isArray(e)?e:[]].sort((n,o)=>n.cycle-o.cycle);return d`<section aria-labelledby="charges-title">
    <h2 id="charges-title">Charges</h2>
    ${t.length===0?d`<p class="muted">No cycle charged yet.</p>`:d`<div class="scroll"><table>
          <caption>${t.length} ${t.length===1?"charge":"charges"}, by cycle</caption>
          <thead><tr><th scope="col">Cycle</th><th scope="col">Due date</th><th scope="col">Status</th><th scope="col">Amount</th><th scope="col">Attempts</th></tr></thead>
          <tbody>${t.map(n=>d`<tr>
            <th scope="row"><a href=${`#/payments/${n.paymentIntentId}`}>Cycle ${n.cycle}</a></th>
            <td class="nowrap">${n.dueDate}</td><td><span class=${`badge ${n.status}`}>${n.status}</span></td>
            <td class="nowrap">${Ce(n.amount)}</td><td>${Tf(n.attempts)}</td>
          </tr>`)}</tbody>
        </table></div>`}
  </section>`}function If({mandate:e}){let t=e.authorization;return d`<section aria-labelledby="mandate-title">
    <h2 id="mandate-title">The mandate</h2>
    <dl class="facts">
      <dt>Id</dt><dd><code>${e.mandateId}</code></dd>
      <dt>Status</dt><dd><span class=${`badge ${e.status}`}>${e.status}</span></dd>
      <dt>Store</dt><dd>${e.store?.code}</dd>
      <dt>Merchant</dt><dd>${e.merchant}</dd>
      ${e.description?d`<dt>Description</dt><dd>${e.description}</dd>`:null}
      <dt>Payer</dt><dd>${e.payer?.name}</dd>
      <dt>Frequency</dt><dd>${Ki[e.frequency]??e.frequency}</dd>
      <dt>Cycles</dt><dd>from ${e.startDate}${e.endDate?` to ${e.endDate}`:", with no end date"}</dd>
      ${e.minimumAmount!==void 0&&e.minimumAmount!==null?d`<dt>Minimum amount</dt><dd>${Ce(e.minimumAmount)} a cycle (the payer sets their own ceiling)</dd>`:d`<dt>Amount</dt><dd>${e.amount!==void 0&&e.amount!==null?`${Ce(e.amount)} a cycle`:"named by the merchant each cycle"}</dd>`}
      <dt>Charged by pixgate</dt><dd>${e.autoCharge?"yes, each cycle":"no: the merchant asks for each cycle's charge"}</dd>
      <dt>Retry policy</dt><dd>${Af[e.retryPolicy]??e.retryPolicy} <code>${e.retryPolicy}</code></dd>
      <dt>Journey</dt><dd>${Cf[e.journey]??e.journey} <code>${e.journey}</code></dd>
      <dt>First payment</dt><dd>${e.firstPayment?.paymentIntentId?d`<a href=${`#/payments/${e.firstPayment.paymentIntentId}`}>Payment <code>${e.firstPayment.paymentIntentId}</code></a>`:d`<span class="muted">none</span>`}</dd>
      <dt>Provider</dt><dd>${e.provider?.code??"—"}</dd>
      <dt>Recurrence id</dt><dd>${e.provider?.recurrenceId?d`<code>${e.provider.recurrenceId}</code>`:d`<span class="muted">none${e.routing?.mode==="SHADOW"?" (a SHADOW store: nothing was sent to a PSP)":""}</span>`}</dd>
      <dt>Route</dt><dd>${e.routing?`${e.routing.mode} · ${e.routing.policy} → ${e.routing.gatewayAlias}`:"—"}</dd>
      ${t?.expiresAt?d`<dt>Authorization expires</dt><dd>${X(t.expiresAt)}</dd>`:null}
      ${t?.copyAndPaste?d`<dt>Authorization code</dt><dd><code>${t.copyAndPaste}</code></dd>`:null}
      ${e.rejection?d`<dt>Rejection</dt><dd><code>${e.rejection.code}</code> ${e.rejection.message}</dd>`:null}
      ${e.cancellation?d`<dt>Cancellation</dt><dd>by ${Ef[e.cancellation.by]??e.cancellation.by} (<code>${e.cancellation.by}</code>): <code>${e.cancellation.code}</code> ${e.cancellation.message}</dd>`:null}
      ${e.failure?d`<dt>Failure</dt><dd><code>${e.failure.code}</code> ${e.failure.message}</dd>`:null}
      <dt>Created</dt><dd>${X(e.createdAt)}</dd>
      <dt>Updated</dt><dd>${X(e.updatedAt)}</dd>
    </dl>
  </section>`}function Zi({me:e}){let t=te(()=>Gt("/operators",{},a=>a.id),[]),n=ge(),[o,l]=I(null);return d`<h1>Operators</h1>
    ${xe(e,"admin")?d`<${Rf} onCreated=${t.reload} />`:null}
    <${se} error=${n.error} />
    <${le} state=${t} what="the operators">${a=>d`<div class="scroll"><table>
      <caption>${a.length} operators</caption>
      <thead><tr><th scope="col">Name</th><th scope="col">Id</th><th scope="col">Role</th><th scope="col">Created</th><th scope="col">Status</th>
        ${xe(e,"admin")?d`<th scope="col"><span class="visually-hidden">Actions</span></th>`:null}</tr></thead>
      <tbody>${a.map(r=>{let i=!!r.revokedAt||r.status==="REVOKED"||r.revoked===!0;return d`<tr>
          <th scope="row">${r.name}</th><td><code>${r.id}</code></td><td>${r.role}</td><td>${X(r.createdAt)}</td>
          <td>${i?d`<span class="badge off">revoked ${X(r.revokedAt)}</span>`:d`<span class="badge ok">active</span>`}</td>
          ${xe(e,"admin")?d`<td>${i||r.id===e.id?null:d`<button type="button" onClick=${()=>l(r)}>Revoke ${r.name}</button>`}</td>`:null}
        </tr>`})}</tbody>
    </table></div>`}<//>
    <${dn} open=${!!o} title=${`Revoke ${o?.name??""}?`} confirmLabel="Revoke"
      onCancel=${()=>l(null)}
      onConfirm=${async()=>{let a=o;l(null),await n.run(()=>At(`/operators/${encodeURIComponent(a.id)}/revoke`))!==void 0&&t.reload()}}>Their token stops working at once.<//>`}function Rf({onCreated:e}){let[t,n]=I(""),[o,l]=I("viewer"),a=ge();return d`<section aria-labelledby="new-operator">
    <h2 id="new-operator">Add an operator</h2>
    <form class="row" onSubmit=${async r=>{r.preventDefault(),await a.run(()=>At("/operators",{name:t.trim(),role:o}))!==void 0&&(n(""),e())}}>
      <label>Name <input value=${t} onInput=${r=>n(r.target.value)} required maxlength="120" /></label>
      <label>Role
        <select value=${o} onChange=${r=>l(r.target.value)}>
          ${nl.map(r=>d`<option value=${r}>${r}</option>`)}
        </select>
      </label>
      <button type="submit" class="primary" disabled=${a.busy}>Add the operator</button>
    </form>
    <${se} error=${a.error} />
    ${a.result?.token?d`<div class="notice" role="status">
      <p>The token of <strong>${a.result.name}</strong> (${a.result.role}), shown this once: hand it over now.</p>
      <p><label>Token <input readonly value=${a.result.token} onFocus=${r=>r.target.select()} /></label></p>
    </div>`:null}
  </section>`}function Xi(){let[e,t]=I({operator:"",action:"",target:"",since:"",until:""}),[n,o]=I(e),[l,a]=I([]),r=ge(),i=(f,g)=>{let b={...f,limit:50,after:g};for(let S of["since","until"])b[S]&&(b[S]=new Date(b[S]).toISOString());return b},u=te(async()=>(a([]),q("/audit-events",i(n))),[JSON.stringify(n)]),h=f=>g=>t({...e,[f]:g.target.value}),m=[...u.data??[],...l];return d`<h1>Audit trail</h1>
    <form class="filters" role="search" aria-label="Filter the audit trail" onSubmit=${f=>{f.preventDefault(),o({...e})}}>
      <label>Operator id <input value=${e.operator} onInput=${h("operator")} placeholder="bootstrap or an operator's id" /></label>
      <label>Action <input value=${e.action} onInput=${h("action")} placeholder="resource.verb, e.g. store.update" /></label>
      <label>Target <input value=${e.target} onInput=${h("target")} /></label>
      <label>Since <input type="datetime-local" value=${e.since} onInput=${h("since")} /></label>
      <label>Until <input type="datetime-local" value=${e.until} onInput=${h("until")} /></label>
      <button type="submit" class="primary">Filter</button>
    </form>
    <${se} error=${r.error} />
    <${le} state=${u} what="the audit trail">${()=>d`
      ${m.length===0?d`<p role="status">No event matches.</p>`:d`<div class="scroll"><table>
        <caption>${m.length} events, newest first</caption>
        <thead><tr><th scope="col">When</th><th scope="col">Operator</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">Change</th></tr></thead>
        <tbody>${m.map(f=>d`<tr>
          <td>${X(f.at)}</td><td>${f.operator?.name??""} <code>${f.operator?.id??""}</code></td><td><code>${f.action}</code></td><td><code>${f.target}</code></td>
          <td>${f.before!==void 0||f.after!==void 0?d`<${ut} value=${{before:f.before,after:f.after}} summary="before and after" />`:""}</td>
        </tr>`)}</tbody>
      </table></div>`}
      ${m.length&&m.length%50===0?d`<button type="button" disabled=${r.busy} onClick=${async()=>{let f=await r.run(()=>q("/audit-events",i(n,m[m.length-1].eventId)));f&&a([...l,...f])}}>Older events</button>`:null}`}<//>`}var Lf=[1,6,24,72,168],Xr=24,tc=3,ea=100;function nc(){let[e,t]=I(Xr),n=te(()=>q("/overview",{hours:e}),[e]),o=te(()=>q("/providers"),[]),l=te(()=>q("/webhook-deliveries",{state:"failing",limit:ea}),[]),a=()=>{n.reload(),o.reload(),l.reload()},r=ec(e);return d`<h1>Is anything on fire?</h1>
    <${Mf} overview=${n} providers=${o} failing=${l} span=${r} />
    <form class="row" aria-label="Which window" onSubmit=${i=>i.preventDefault()}>
      <label>Hours
        <select value=${e} onChange=${i=>{Xr=Number(i.target.value),t(Xr)}}>
          ${Lf.map(i=>d`<option value=${i}>${ec(i)}</option>`)}
        </select>
      </label>
      <button type="button" onClick=${a} disabled=${n.loading}>Refresh</button>
    </form>
    <${Jr} />
    <${le} state=${n} what="the overview">${i=>d`
      <${Nf} overview=${i} span=${r} />
      <${Uf} overview=${i} />`}<//>
    <section aria-labelledby="psp-health">
      <h2 id="psp-health">PSP health</h2>
      <${le} state=${o} what="the providers">${i=>d`<${Vf} providers=${i} />`}<//>
    </section>
    ${n.data?d`
      <${Hf} pending=${n.data.pendingLive} />
      <${Wf} stores=${n.data.flaggedStores} />`:null}`}function ec(e){return e===1?"the last hour":e%24===0?e===24?"the last 24 hours":`the last ${e/24} days`:`the last ${e} hours`}function oc(e){return["PENDING","SUCCEEDED","FAILED","CANCELED"].reduce((t,n)=>t+(e?.[n]??0),0)}function Sl(e,t){let n=oc(e);return n?(e?.[t]??0)/n:null}function Mf({overview:e,providers:t,failing:n,span:o}){if(e.error||t.error||n.error)return d`<section class="verdict warn" aria-label="Verdict">
      <p><strong>Unknown:</strong> the overview, the providers or the failing webhook deliveries could not be read.</p>
      <${se} error=${n.error} />
    </section>`;if(!e.data||!t.data||!n.data)return d`<p class="muted" role="status">Checking the PSPs, the charges and the webhook deliveries…</p>`;let l=e.data,a=n.data,r=t.data.filter(f=>f.active&&f.health&&f.health.available===!1),i=(l.pendingLive?.byAge??[]).slice(tc).reduce((f,g)=>f+g.count,0),u=l.totals?.byStatus?.FAILED??0,h=a.length>=ea?`${ea} or more`:`${a.length}`,m=[...r.map(f=>d`<a href="#/providers">PSP ${f.name} (<code>${f.code}</code>) is unavailable</a>`),i?d`${i} LIVE ${i===1?"charge has":"charges have"} been pending for over 2 hours (the oldest are listed below)`:null,u?d`${u} LIVE ${u===1?"charge":"charges"} failed in ${o} (${Zn(Sl(l.totals.byStatus,"FAILED"))} of the LIVE charges)`:null,a.length?d`<a href="#/deliveries">${h} webhook ${a.length===1?"delivery is":"deliveries are"} failing</a>`:null].filter(Boolean);return m.length?d`<section class="verdict warn" aria-label="Verdict">
    <p><strong>Maybe: ${m.length===1?"this needs":"these need"} a look.</strong></p>
    <ul>${m.map(f=>d`<li>${f}</li>`)}</ul>
  </section>`:d`<section class="verdict ok" aria-label="Verdict">
      <p><strong>No.</strong> Every PSP that reports its health is available, no LIVE charge has been pending for over 2 hours,
        none failed in ${o} and no webhook delivery is failing.</p>
    </section>`}function en({label:e,children:t}){return d`<div class="tile"><dt>${e}</dt><dd>${t}</dd></div>`}function Nf({overview:e,span:t}){let n=e.totals?.byStatus??{};return d`<section aria-labelledby="totals-title">
    <h2 id="totals-title">Totals, ${t}</h2>
    <p class="muted">Charges created from ${X(e.from)} to ${X(e.to)}. The rates are shares of the LIVE charges
      (${oc(n)}); a SHADOW store's charges stop at the decision.</p>
    <dl class="tiles">
      <${en} label="Charges">${e.totals?.charges??0}<//>
      <${en} label="Amount">${at(e.totals?.amountCentavos??0)}<//>
      <${en} label="Success rate">${Zn(Sl(n,"SUCCEEDED"))}<//>
      <${en} label="Failed rate">${Zn(Sl(n,"FAILED"))}<//>
      <${en} label="Succeeded">${n.SUCCEEDED??0}<//>
      <${en} label="Failed">${n.FAILED??0}<//>
      <${en} label="Pending">${n.PENDING??0}<//>
      <${en} label="Canceled">${n.CANCELED??0}<//>
      <${en} label="Shadow only">${n.SHADOW_ONLY??0}<//>
    </dl>
  </section>`}function Of(e){let t=(e.bucketSeconds||3600)*1e3,n=new Map((e.series??[]).map(r=>[Date.parse(r.at),r])),o=Math.floor(Date.parse(e.from)/t)*t,l=Date.parse(e.to),a=new Set(n.keys());if(Number.isFinite(o)&&Number.isFinite(l)&&(l-o)/t<=1e3)for(let r=o;r<l;r+=t)a.add(r);return[...a].sort((r,i)=>r-i).map(r=>{let i=n.get(r),u=i?.byStatus??{},h=m=>{let f=Sl(u,m);return f===null?null:Math.round(f*1e3)/10};return{at:new Date(r).toISOString(),charges:i?.charges??0,succeeded:u.SUCCEEDED??0,failed:u.FAILED??0,pending:u.PENDING??0,shadow:u.SHADOW_ONLY??0,successRate:h("SUCCEEDED"),failedRate:h("FAILED")}})}function Ff(e){return!e||e===3600?"hour":e%3600===0?`${e/3600} hours`:`${Math.round(e/60)} minutes`}function Uf({overview:e}){let t=Of(e),n=Ff(e.bucketSeconds);return d`<section aria-labelledby="volume-title">
    <h2 id="volume-title">Volume and outcomes</h2>
    ${(e.series??[]).length===0?d`<p class="muted">No charge in this window.</p>`:d`<div class="charts">
          <${Lo} title=${`Charges per ${n}`} points=${t} span=${[e.from,e.to]}
            series=${[{key:"charges",label:"charges"},{key:"succeeded",label:"succeeded"},{key:"failed",label:"failed"},{key:"pending",label:"pending"}]} />
          <${Lo} title=${`Success and failed rates per ${n} (% of LIVE charges)`} points=${t} span=${[e.from,e.to]}
            unit=" %" max=${100}
            series=${[{key:"successRate",label:"success rate"},{key:"failedRate",label:"failed rate"}]} />
        </div>`}
  </section>`}function Vf({providers:e}){return e.length?d`<div class="scroll"><table>
    <caption>Each PSP's recent calls, as the <a href="#/providers">Providers</a> page shows them</caption>
    <thead><tr><th scope="col">Provider</th><th scope="col">Status</th><th scope="col">Health</th></tr></thead>
    <tbody>${e.map(t=>d`<tr>
      <th scope="row">${t.name} <code>${t.code}</code></th>
      <td><span class=${`badge ${t.active?"ok":"off"}`}>${t.active?"active":"inactive"}</span></td>
      <td>${yl(t.health)}</td>
    </tr>`)}</tbody>
  </table></div>`:d`<p class="muted">No provider is configured: every store decides in SHADOW only.</p>`}function Hf({pending:e}){let t=e?.byAge??[],n=e?.oldest??[];return d`<section aria-labelledby="pending-title">
    <h2 id="pending-title">Pending LIVE charges</h2>
    <p>${e?.count??0} LIVE ${e?.count===1?"charge is":"charges are"} waiting for the payer or the PSP, whenever created.</p>
    <div class="scroll"><table class="narrow">
      <caption>Pending LIVE charges by age</caption>
      <thead><tr><th scope="col">Pending for</th><th scope="col">Charges</th></tr></thead>
      <tbody>${t.map((o,l)=>d`<tr class=${l>=tc&&o.count?"alarm":void 0}>
        <th scope="row">${o.label}</th><td>${o.count}</td>
      </tr>`)}</tbody>
    </table></div>
    ${n.length?d`<${vl} intents=${n} caption=${`The ${n.length} oldest, oldest first`}
          extra=${{label:"Pending for",cell:o=>zf(o.createdAt)}} />`:null}
  </section>`}function zf(e){let t=Date.now()-Date.parse(e);if(!Number.isFinite(t))return"—";let n=Math.max(0,Math.floor(t/6e4));if(n<1)return"under a minute";if(n<120)return`${n} min`;let o=Math.floor(n/60);return o<48?`${o} h`:`${Math.floor(o/24)} days`}function Wf({stores:e}){return d`<section aria-labelledby="flagged-title">
    <h2 id="flagged-title">Stores trying a new version</h2>
    ${e?.length?d`<div class="scroll"><table>
          <caption>Stores running a canary or a shadow candidate</caption>
          <thead><tr><th scope="col">Store</th><th scope="col">Merchant</th><th scope="col">Mode</th><th scope="col">Canaries</th><th scope="col">Shadow candidates</th></tr></thead>
          <tbody>${e.map(t=>d`<tr>
            <th scope="row"><a href=${`#/stores/${encodeURIComponent(t.store)}`}>${t.store}</a></th>
            <td>${t.merchant}</td><td><span class=${`badge ${t.mode}`}>${t.mode}</span></td>
            <td>${(t.canaries??[]).length?d`<ul class="plain">${t.canaries.map(n=>d`<li>
              ${n.step} <${Me} value=${n.version} /> on ${n.basisPoints/100} % since ${X(n.startedAt)}
            </li>`)}</ul>`:d`<span class="muted">none</span>`}</td>
            <td>${(t.candidates??[]).length?d`<ul class="plain">${t.candidates.map(n=>d`<li>
              ${n.step} <${Me} value=${n.version} /> since ${X(n.since)}:${" "}
              <a href=${`#/shadow/${encodeURIComponent(t.store)}/${n.step}`}>${`${t.store} ${n.step} comparison`}</a>
            </li>`)}</ul>`:d`<span class="muted">none</span>`}</td>
          </tr>`)}</tbody>
        </table></div>`:d`<p class="muted">No store runs a canary or a shadow candidate.</p>`}
  </section>`}var kl=20,xl="";function rc({me:e}){let[t,n]=I(xl),[o,l]=I(xl),[a,r]=I(0),i=ge(),[u,h]=I(null),[m,f]=I(null);async function g(){let b=u;h(null),f(b),await i.run(()=>At(`/webhook-deliveries/${b.deliveryId}/resend`))!==void 0&&r(x=>x+1)}return d`<h1>Webhook deliveries</h1>
    <p>The events pixgate sends to merchants' webhook endpoints, every merchant's. Each one links to its payment, where
      its attempts are listed one by one.</p>
    <form class="filters" role="search" aria-label="Filter the deliveries" onSubmit=${b=>{b.preventDefault(),xl=t.trim(),l(xl)}}>
      <label>Merchant <input value=${t} onInput=${b=>n(b.target.value)} placeholder="every merchant" /></label>
      <button type="submit" class="primary">Filter</button>
    </form>
    <${se} error=${i.error} />
    ${i.busy?d`<p role="status">Sending again…</p>`:null}
    ${i.result&&m?d`<p role="status">The <code>${m.event}</code> delivery to ${m.endpointName} is being sent again.</p>`:null}
    <${lc} id="failing" title="Failing" state="failing" merchant=${o} round=${a} me=${e} onResend=${h}
      caption="exhausted, a failed test, or retrying after a failed attempt"
      none="No delivery is failing." />
    <${lc} id="recent" title="All recent" merchant=${o} round=${a} me=${e} onResend=${h}
      none="No webhook delivery yet." />
    <${dn} open=${!!u} title="Send this delivery again?" confirmLabel="Resend"
      onCancel=${()=>h(null)} onConfirm=${g}>${u?d`The <code>${u.event}</code> event goes to
        ${u.endpointName} (<code>${u.endpointUrl}</code>) again, with the same event id: a receiver that keeps
        the ids it saw handles it once.`:null}<//>`}function lc({id:e,title:t,state:n,merchant:o,round:l,me:a,onResend:r,caption:i,none:u}){let[h,m]=I([]),[f,g]=I(!1),b=ge(),S=te(async()=>{let v=await q("/webhook-deliveries",{state:n,merchant:o,limit:kl});return m([]),g(v.length<kl),v},[n,o,l]),x=[...S.data??[],...h];return d`<section aria-labelledby=${`deliveries-${e}`}>
    <h2 id=${`deliveries-${e}`}>${t}</h2>
    <${le} state=${S} what=${`the ${t.toLowerCase()} deliveries`}>${()=>x.length===0?d`<p class="muted">${u}</p>`:d`<div class="scroll"><table>
          <caption>${x.length} ${x.length===1?"delivery":"deliveries"}${f?"":" so far"}, newest first${i?`: ${i}`:""}</caption>
          <thead><tr><th scope="col">Endpoint</th><th scope="col">Merchant</th><th scope="col">Event</th><th scope="col">Status</th>
            <th scope="col">Attempts</th><th scope="col">Last error</th><th scope="col">Payment</th><th scope="col">Created</th>
            ${xe(a,"operator")?d`<th scope="col"><span class="visually-hidden">Actions</span></th>`:null}</tr></thead>
          <tbody>${x.map(v=>d`<tr>
            <th scope="row"><span title=${v.endpointUrl}>${v.endpointName}</span></th>
            <td>${v.merchant}</td><td class="nowrap"><code>${v.event}</code></td>
            <td><span class=${`badge ${v.status}`}>${v.status}</span>${v.nextAttemptAt?d`<br /><span class="muted">next ${X(v.nextAttemptAt)}</span>`:null}</td>
            <td>${v.attemptCount}</td>
            <td>${v.lastError?d`<code>${v.lastError}</code>`:d`<span class="muted">none</span>`}</td>
            <td class="nowrap">${v.paymentIntentId?d`<a href=${`#/payments/${v.paymentIntentId}`}><code title=${v.paymentIntentId}>…${v.paymentIntentId.slice(-12)}</code></a>`:d`<span class="muted">none</span>`}</td>
            <td>${X(v.createdAt)}</td>
            ${xe(a,"operator")?d`<td><button type="button" onClick=${()=>r(v)}
              aria-label=${`Resend ${v.event} to ${v.endpointName}`}>Resend</button></td>`:null}
          </tr>`)}</tbody>
        </table></div>`}<//>
    <${se} error=${b.error} />
    ${S.data&&!f?d`<button type="button" disabled=${b.busy} onClick=${async()=>{let v=await b.run(()=>q("/webhook-deliveries",{state:n,merchant:o,limit:kl,after:x[x.length-1].deliveryId}));v&&(m([...h,...v]),g(v.length<kl))}}>Load more ${t.toLowerCase()} deliveries</button>`:null}
  </section>`}var ac=`{
  "amount": 129.90,
  "reference": "evaluate-0001",
  "description": "2 cafes e 1 pao de queijo",
  "payer": {
    "name": "Ana Souza",
    "taxId": "529.982.247-25",
    "email": "ana.souza@example.com"
  },
  "metadata": {"orderId": "evaluate-0001"}
}`,uo={store:"",chosen:{policy:"",provider:"",economics:""},charge:ac,idempotencyKey:""};function sc({me:e,store:t}){let n=te(async()=>{let[o,...l]=await Promise.all([Gt("/stores",{},a=>a.code),...De.map(a=>q(`/components/${a}`))]);return{stores:o,versions:Object.fromEntries(De.map((a,r)=>[a,l[r]]))}},[]);return d`<h1>Evaluate a charge</h1>
    <p>Runs one charge through a store's chain, as the charge route would, and shows the decision and its trace.
      Nothing is stored and no PSP is called.</p>
    ${xe(e,"tester")?d`<${le} state=${n} what="stores and versions">${o=>d`<${Bf} key=${t??""} initial=${t} ...${o} />`}<//>`:d`<p role="note">Your role (${e.role}) may not evaluate charges: a tester may.</p>`}`}function Bf({stores:e,versions:t,initial:n}){let o=e.find(x=>x.code===n)??e.find(x=>x.code===uo.store)??e[0],[l,a]=I(o?.code??""),[r,i]=I(uo.chosen),[u,h]=I(uo.charge),[m,f]=I(uo.idempotencyKey),g=ge(),b=e.find(x=>x.code===l)?.components??{};async function S(x){x.preventDefault(),uo={store:l,chosen:r,charge:u,idempotencyKey:m},await g.run(()=>{let v;try{v=JSON.parse(u)}catch(C){throw new et(0,"invalid_json",`The charge is not JSON: ${C.message}`,"charge")}if(v===null||typeof v!="object"||Array.isArray(v))throw new et(0,"invalid_json","The charge must be a JSON object.","charge");let D=Object.fromEntries(Object.entries(r).filter(([,C])=>C)),w={store:l,components:D};m.trim()&&(w.idempotencyKey=m.trim());let A=`${JSON.stringify(w).slice(0,-1)},"charge":${u.trim()}}`;return Qt("POST","/evaluate",{body:new Blob([A]),contentType:"application/json"})})}return d`<form class="stack" onSubmit=${S} aria-label="The charge to evaluate">
      <label>Store
        <select value=${l} onChange=${x=>a(x.target.value)}>
          ${e.map(x=>d`<option value=${x.code}>${x.code} (${x.mode})</option>`)}
        </select>
      </label>
      <fieldset>
        <legend>Versions</legend>
        ${De.map(x=>d`<label>${x}
          <select value=${r[x]} onChange=${v=>i({...r,[x]:v.target.value})}>
            <option value="">the store's active (${jf(b[x])})</option>
            <option value="bundled">bundled</option>
            ${t[x].map(v=>d`<option value=${v.version}>${v.version.slice(0,12)} ${v.label?`${v.label} `:""}(${v.source})</option>`)}
          </select>
        </label>`)}
      </fieldset>
      <label class="wide"><span>Charge (JSON, as a merchant sends it, without <code>store</code>)</span>
        <textarea rows="14" spellcheck="false" value=${u} onInput=${x=>h(x.target.value)} aria-describedby="charge-help"></textarea>
      </label>
      <p id="charge-help" class="muted">Amount in reais with at most two decimals, a reference, a description and the
        payer (name, CPF or CNPJ, e-mail); metadata is optional.</p>
      <label>Idempotency-Key (optional)
        <input value=${m} onInput=${x=>f(x.target.value)} maxLength="200" size="48"
          placeholder="the store's canary arms as for this key" />
      </label>
      <div class="row">
        <button type="submit" class="primary" disabled=${g.busy||!l}>Evaluate</button>
        <button type="button" onClick=${()=>h(ac)}>Reset the charge</button>
      </div>
    </form>
    <${se} error=${g.error} />
    ${g.busy?d`<p role="status">Evaluating…</p>`:null}
    ${g.result?d`<${Gf} evaluation=${g.result} store=${uo.store} />`:null}`}function jf(e){return e?/^[0-9a-f]{64}$/.test(e)?e.slice(0,12):e:"none"}function Gf({evaluation:e,store:t}){let n=e.outcome??{};return d`<section aria-labelledby="evaluation-title" class="report">
    <h2 id="evaluation-title">Decision for ${t}</h2>
    <dl class="facts">
      <dt>Outcome</dt><dd><span class=${`badge ${n.status==="resolved"?"ok":"off"}`}>${n.status}</span> ${Dn(n)}</dd>
      ${n.status==="resolved"?d`
        <dt>Policy</dt><dd><code>${n.policy}</code></dd>
        <dt>Provider</dt><dd>${n.providerCode}</dd>
        <dt>Fee / net</dt><dd>${at(n.feeCentavos)} / ${at(n.netCentavos)}, settles ${n.settlementDate}</dd>
        ${e.routes?.length?d`<dt>Routes</dt><dd>${e.routes.length}, tried in the order below by a LIVE charge</dd>`:null}`:d`<dt>Message</dt><dd>${n.message}</dd>`}
    </dl>
    ${e.canaries?.length?d`<h3>Canary arms</h3><ul>${e.canaries.map(o=>d`<li>
      ${o.step}: the ${o.arm==="canary"?"canary":"active version"} (canary <${Me} value=${o.version} /> on ${o.percent} %)</li>`)}</ul>`:null}
    <h3>Trace</h3>
    <${Qr} trace=${e.trace??{}} />
    <${ut} value=${e} summary="The evaluation as JSON" />
  </section>`}var Cl=20,ic={matched:"paid at the PSP and here, the same",settled_late:"paid at the PSP while pending here: settled by the sweep",paid_after_cancel:"paid at the PSP, canceled here",amount_mismatch:"paid another amount than the charge’s",unknown_pix:"a pix no charge explains",missing_at_psp:"paid here, absent from the PSP’s list",refund_mismatch:"a devolução unlike pixgate’s refund, or made at the PSP",med_refund:"money the payer’s bank took back (MED)"};function Al(e=0){return new Date(Date.now()-3*36e5+e*864e5).toISOString().slice(0,10)}function dc(e,t){let n=URL.createObjectURL(new Blob([e],{type:"text/csv"})),o=document.createElement("a");o.href=n,o.download=t,document.body.append(o),o.click(),o.remove(),setTimeout(()=>URL.revokeObjectURL(n),1e3)}function uc({counts:e}){let t=Object.entries(e??{});return t.length===0?d`<span class="muted">none</span>`:d`${t.map(([n,o],l)=>d`${l?", ":""}<span class=${`finding ${n}`}>${n} ${o}</span>`)}`}function fc({me:e}){let[t,n]=I(""),[o,l]=I(""),[a,r]=I([]),[i,u]=I(!1),h=ge(),m=te(async()=>{let b=await q("/reconciliations",{provider:o,limit:Cl});return r([]),u(b.length<Cl),b},[o]),f=[...m.data??[],...a],g=f.some(b=>b.status==="RUNNING");return gt(()=>{if(!g)return;let b=setTimeout(m.reload,1e3);return()=>clearTimeout(b)},[g,m.data]),d`<h1>Reconciliation</h1>
    <p>Each provider's day as its PSP lists it (API Pix <code>GET /pix</code>), matched against pixgate's books: what
      matched, and exactly which payments did not and why. The schedule sweeps every provider's day before each
      morning; an operator can sweep a day now. <a href="#/settlements">The settlement calendar</a> shows what arrives
      from which PSP on which day.</p>
    ${xe(e,"operator")?d`<${qf} onStarted=${()=>m.reload()} />`:null}
    <form class="filters" role="search" aria-label="Filter runs" onSubmit=${b=>{b.preventDefault(),l(t.trim())}}>
      <label>Provider <input value=${t} onInput=${b=>n(b.target.value)} placeholder="every provider" /></label>
      <button type="submit">Filter</button>
    </form>
    <${le} state=${m} what="runs">${()=>f.length===0?d`<p role="status">No run yet.</p>`:d`<div class="scroll"><table>
          <caption>${f.length} ${f.length===1?"run":"runs"}${i?"":" so far"}, newest first</caption>
          <thead><tr><th scope="col">Day</th><th scope="col">Provider</th><th scope="col">Status</th><th scope="col">Asked by</th>
            <th scope="col">Pix</th><th scope="col">Findings</th><th scope="col">Started</th></tr></thead>
          <tbody>${f.map(b=>d`<tr>
            <th scope="row"><a href=${`#/reconciliations/${b.reconciliationId}`}>${b.date}</a></th>
            <td>${b.provider}</td><td><span class=${`badge ${b.status}`}>${b.status}</span></td>
            <td>${b.requestedBy??d`<span class="muted">the schedule</span>`}</td>
            <td>${b.pix}</td><td><${uc} counts=${b.counts} /></td><td>${X(b.startedAt)}</td>
          </tr>`)}</tbody>
        </table></div>`}<//>
    <${se} error=${h.error} />
    ${m.data&&!i?d`<button type="button" disabled=${h.busy} onClick=${async()=>{let b=await h.run(()=>q("/reconciliations",{provider:o,limit:Cl,after:f[f.length-1].reconciliationId}));b&&(r([...a,...b]),u(b.length<Cl))}}>More runs</button>`:null}`}function qf({onStarted:e}){let t=te(()=>q("/providers"),[]),[n,o]=I({provider:"",date:Al(-1)}),l=ge(),a=n.provider||t.data?.[0]?.code||"";return d`<form class="filters" aria-label="Sweep a day" onSubmit=${async r=>{r.preventDefault();let i=await l.run(()=>At("/reconciliations",{provider:a,date:n.date}));i&&e(i)}}>
    <label>Provider
      <select value=${a} onChange=${r=>o({...n,provider:r.target.value})}>
        ${(t.data??[]).map(r=>d`<option value=${r.code}>${r.code}</option>`)}
      </select>
    </label>
    <label>Day <input type="date" value=${n.date} max=${Al()} required
      onInput=${r=>o({...n,date:r.target.value})} /></label>
    <button type="submit" class="primary" disabled=${l.busy||!a}>Sweep this day</button>
    <${se} error=${l.error} />
  </form>`}function pc({id:e}){let t=te(()=>q(`/reconciliations/${encodeURIComponent(e)}`),[e]),[n,o]=I(""),l=te(()=>q(`/reconciliations/${encodeURIComponent(e)}/findings`,{kind:n,limit:100}),[e,n,t.data?.status]),a=ge();return gt(()=>{if(t.data?.status!=="RUNNING")return;let r=setTimeout(t.reload,1e3);return()=>clearTimeout(r)},[t.data]),d`<h1>Reconciliation of ${t.data?d`${t.data.provider} for ${t.data.date}`:d`<code>${e}</code>`}</h1>
    <p><a href="#/reconciliations">Back to the runs</a></p>
    <${le} state=${t} what="the run">${r=>d`<dl class="facts">
        <dt>Status</dt><dd><span class=${`badge ${r.status}`}>${r.status}</span></dd>
        ${r.error?d`<dt>Error</dt><dd>${r.error}</dd>`:null}
        <dt>Asked by</dt><dd>${r.requestedBy??"the schedule"}</dd>
        <dt>Read</dt><dd>${r.pages} ${r.pages===1?"page":"pages"}, ${r.pix} pix</dd>
        <dt>Findings</dt><dd><${uc} counts=${r.counts} /></dd>
        <dt>Started</dt><dd>${X(r.startedAt)}</dd>
        ${r.finishedAt?d`<dt>Finished</dt><dd>${X(r.finishedAt)}</dd>`:null}
      </dl>`}<//>
    <section aria-labelledby="findings-title">
      <h2 id="findings-title">Findings</h2>
      <form class="filters" aria-label="Filter findings" onSubmit=${r=>r.preventDefault()}>
        <label>Kind
          <select value=${n} onChange=${r=>o(r.target.value)}>
            <option value="">every kind but matched</option>
            ${Object.keys(ic).map(r=>d`<option value=${r}>${r}</option>`)}
          </select>
        </label>
        <button type="button" disabled=${a.busy} onClick=${()=>a.run(async()=>{dc(await pr(`/reconciliations/${encodeURIComponent(e)}/findings.csv`,{kind:n}),`findings-${e}.csv`)})}>Download CSV</button>
      </form>
      <${se} error=${a.error} />
      <${le} state=${l} what="the findings">${r=>r.length===0?d`<p role="status">${n?`No ${n} finding.`:"Nothing to look at: every pix matched."}</p>`:d`<div class="scroll"><table>
            <caption>${r.length} ${r.length===1?"finding":"findings"}${r.length===100?" (the first 100: the CSV has them all)":""}</caption>
            <thead><tr><th scope="col">Kind</th><th scope="col">Payment</th><th scope="col">Amount at the PSP</th>
              <th scope="col">Here</th><th scope="col">endToEndId / txid</th><th scope="col">What</th></tr></thead>
            <tbody>${r.map(i=>d`<tr>
              <th scope="row"><span class=${`finding ${i.kind}`} title=${ic[i.kind]??""}>${i.kind}</span></th>
              <td>${i.paymentIntentId?d`<a href=${`#/payments/${i.paymentIntentId}`}><code>${i.paymentIntentId.slice(0,8)}</code></a>`:d`<span class="muted">none</span>`}</td>
              <td class="nowrap">${Ce(i.amount)}</td><td class="nowrap">${Ce(i.localAmount)}</td>
              <td><code>${i.endToEndId??i.txid??""}</code></td><td>${i.detail}</td>
            </tr>`)}</tbody>
          </table></div>`}<//>
    </section>`}var cc=null;function hc(){let[e,t]=I(()=>cc??{from:Al(-7),to:Al(30),merchant:"",provider:""}),[n,o]=I(e),l=te(()=>q("/settlements",n),[JSON.stringify(n)]),a=ge(),r=i=>u=>t({...e,[i]:u.target.value});return d`<h1>Settlement calendar</h1>
    <p>What arrives from which PSP on which day: per settlement date, merchant, provider, gateway and release class, the
      LIVE payments that succeeded (gross, and the fees their economics quoted) less the refunds completed that day.
      SHADOW payments moved no money and are not in it.</p>
    <form class="filters" role="search" aria-label="Settlement period" onSubmit=${i=>{i.preventDefault(),cc=e,o(e)}}>
      <label>From <input type="date" value=${e.from} required onInput=${r("from")} /></label>
      <label>To <input type="date" value=${e.to} required onInput=${r("to")} /></label>
      <label>Merchant <input value=${e.merchant} onInput=${r("merchant")} placeholder="every merchant" /></label>
      <label>Provider <input value=${e.provider} onInput=${r("provider")} placeholder="every provider" /></label>
      <button type="submit" class="primary">Show</button>
      <button type="button" disabled=${a.busy} onClick=${()=>a.run(async()=>{dc(await pr("/settlements.csv",n),`settlements-${n.from}-${n.to}.csv`)})}>Download CSV</button>
    </form>
    <${se} error=${a.error} />
    <${le} state=${l} what="the calendar">${i=>i.length===0?d`<p role="status">Nothing settles from ${n.from} to ${n.to}.</p>`:d`<${Yf} rows=${i} />`}<//>`}function Yf({rows:e}){let t=[...new Set(e.map(a=>a.settlementDate))].sort(),n=[...new Set(e.map(a=>a.provider))].sort(),o=(a,r)=>e.filter(i=>i.settlementDate===a&&i.provider===r).reduce((i,u)=>i+Math.round(u.net*100),0)/100,l=a=>e.reduce((r,i)=>r+Math.round(i[a]*100),0)/100;return d`<${bl} title="Net to receive by settlement date and provider (BRL)" labelHeading="date" labels=${t}
      series=${n.map(a=>({label:a,values:t.map(r=>o(r,a))}))} />
    <div class="scroll"><table>
      <caption>${e.length} ${e.length===1?"row":"rows"}: ${Ce(l("net"))} net of ${Ce(l("gross"))} gross</caption>
      <thead><tr><th scope="col">Date</th><th scope="col">Merchant</th><th scope="col">Provider</th><th scope="col">Gateway</th>
        <th scope="col">Class</th><th scope="col">Payments</th><th scope="col">Gross</th><th scope="col">Fees</th>
        <th scope="col">Refunds</th><th scope="col">Net</th></tr></thead>
      <tbody>${e.map(a=>d`<tr>
        <th scope="row" class="nowrap">${a.settlementDate}</th><td>${a.merchant}</td><td>${a.provider}</td>
        <td>${a.gatewayAlias}</td><td>${a.releaseClass}</td><td>${a.payments}</td>
        <td class="nowrap">${Ce(a.gross)}</td><td class="nowrap">${Ce(a.fees)}</td>
        <td class="nowrap">${Ce(a.refunds)}</td><td class="nowrap">${Ce(a.net)}</td>
      </tr>`)}</tbody>
    </table></div>`}var Kf=[["overview","Overview"],["stores","Stores"],["components","Components"],["replay","Replay"],["shadow","Shadow"],["providers","Providers"],["payments","Payments"],["mandates","Mandates"],["reconciliations","Reconciliation"],["settlements","Settlements"],["deliveries","Webhook deliveries"],["evaluate","Evaluate"],["operators","Operators"],["audit","Audit trail"]];function mc(){let e=window.location.hash.replace(/^#\/?/,"").split("/").map(decodeURIComponent);return{section:e[0]||"overview",id:e[1]||null,sub:e[2]||null}}function Jf(){let[e,t]=I(mc);return gt(()=>{let n=()=>t(o=>{let l=mc();return o.section===l.section&&o.id===l.id&&o.sub===l.sub?o:l});return window.addEventListener("hashchange",n),n(),()=>window.removeEventListener("hashchange",n)},[]),e}function Qf({onSignedIn:e,notice:t}){let[n,o]=I(null),[l,a]=I(!1),r=jt(null);gt(()=>{r.current?.focus(),performance.mark("console-interactive")},[]);async function i(u){u.preventDefault();let h=r.current.value.trim();if(!h){o(new et(0,"missing_token","Enter an operator token."));return}a(!0),o(null);try{let m=await hr(h);os(h),r.current.value="",e(m)}catch(m){o(m.status===401?new et(401,m.code,"This token was not accepted: check it, or ask an admin for a new one."):m)}finally{a(!1)}}return d`<main id="main" class="signin">
    <form method="post" onSubmit=${i} aria-labelledby="signin-title">
      <h1 id="signin-title">Sign in to the pixgate console</h1>
      ${t?d`<p role="status">${t}</p>`:null}
      <label for="token">Operator token</label>
      <input id="token" ref=${r} type="password" autocomplete="off" spellcheck="false" required aria-describedby="token-help" />
      <p id="token-help" class="muted">
        Your operator token, or the instance's admin token. It stays in this tab only and is
        forgotten when the tab closes.
      </p>
      <button type="submit" class="primary" disabled=${l}>Sign in</button>
      <${se} error=${n} />
    </form>
  </main>`}function Zf({route:e,me:t}){switch(e.section){case"overview":return d`<${nc} me=${t} />`;case"stores":return e.id?d`<${us} code=${e.id} me=${t} />`:d`<${ds} me=${t} />`;case"components":return d`<${fs} me=${t} />`;case"replay":return d`<${Vi} me=${t} />`;case"shadow":return d`<${Hi} me=${t} store=${e.id} step=${e.sub} />`;case"providers":return d`<${zi} me=${t} />`;case"payments":return e.id?d`<${Gi} id=${e.id} me=${t} />`:d`<${ji} me=${t} />`;case"mandates":return e.id?d`<${Qi} id=${e.id} me=${t} />`:d`<${Ji} me=${t} />`;case"reconciliations":return e.id?d`<${pc} id=${e.id} me=${t} />`:d`<${fc} me=${t} />`;case"settlements":return d`<${hc} me=${t} />`;case"deliveries":return d`<${rc} me=${t} />`;case"evaluate":return d`<${sc} me=${t} store=${e.id} />`;case"operators":return d`<${Zi} me=${t} />`;case"audit":return d`<${Xi} me=${t} />`;default:return d`<h1>Not found</h1><p>No such section. <a href="#/overview">Go to the overview</a>.</p>`}}function Xf({me:e,onSignOut:t}){let n=Jf(),o=jt(null),l=jt(!0);return gt(()=>{if(l.current){l.current=!1;return}o.current?.focus()},[n.section,n.id,n.sub]),d`
    <a class="skip" href="#/" onClick=${a=>{a.preventDefault(),o.current?.focus()}}>Skip to content</a>
    <header class="top">
      <span class="brand">pixgate</span>
      <nav aria-label="Sections">
        <ul>
          ${Kf.map(([a,r])=>d`<li><a href=${`#/${a}`} aria-current=${n.section===a?"page":void 0}>${r}</a></li>`)}
        </ul>
      </nav>
      <div class="who">
        <span>${e.name} <span class="role">${e.role}</span></span>
        <button type="button" onClick=${t}>Sign out</button>
      </div>
    </header>
    <main id="main" ref=${o} tabindex="-1">
      <${Zf} route=${n} me=${e} />
    </main>`}function ep(){let[e,t]=I(null),[n,o]=I(!!Qn()),[l,a]=I(null);return gt(()=>{ls(()=>{el(),t(null),a("Your session ended (the token was revoked or is no longer valid). Sign in again.")});let r=Qn();r&&hr(r).then(t,()=>el()).finally(()=>o(!1))},[]),n?d`<p role="status">Checking your session…</p>`:e?d`<${Xf} me=${e} onSignOut=${()=>{el(),t(null),a("Signed out.")}} />`:d`<${Qf} notice=${l} onSignedIn=${r=>{a(null),t(r)}} />`}var $c=document.getElementById("app");$c.replaceChildren();Wa(d`<${ep} />`,$c);})();
