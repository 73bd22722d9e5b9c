#!/usr/bin/env python3
# Licensed to the Apache Software Foundation (ASF) under one or more
# contributor license agreements.  See the NOTICE file distributed with
# this work for additional information regarding copyright ownership.
# The ASF licenses this file to You under the Apache License, Version 2.0
# (the "License"); you may not use this file except in compliance with
# the License.  You may obtain a copy of the License at
#
#    http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
"""Which classes hold the arrays one heap dump has more of than another.

Usage: tools/heap-referrers.py BASE.hprof OTHER.hprof [N]

Reads two HPROF dumps (8-byte ids, as HotSpot writes them; e.g. from bench.ScaleScenarios with
-Dscale.heap-dumps=<dir>, a Lane B and a Lane A window of the same point) and prints the N (30)
holders whose Object[], byte[] and long[] grew the most from BASE to OTHER: bytes (an array's
size with compressed references, 16-byte header) and the number of references, by the class of
the object or array that refers to them. A class histogram says that a heap has more Object[];
this says whose.
"""
import sys, struct, mmap, collections
def load(path):
    # Records: tag, time, length; heap dump segments hold the sub-records scanned below.
    f=open(path,'rb'); m=mmap.mmap(f.fileno(),0,access=mmap.ACCESS_READ)
    end=m.find(b'\0'); pos=end+1
    idsz=struct.unpack('>I',m[pos:pos+4])[0]; pos+=12
    assert idsz==8
    U=lambda p: struct.unpack_from('>Q',m,p)[0]
    strings={}; classname={}; classes={}  # class id -> (super, [(type)...])
    TS={2:8,4:1,5:2,6:4,7:8,8:1,9:2,10:4,11:8}
    segs=[]
    while pos < len(m):
        tag=m[pos]; ln=struct.unpack_from('>I',m,pos+5)[0]; body=pos+9
        if tag==1: strings[U(body)]=m[body+8:body+ln].decode('utf8','replace')
        elif tag==2: classname[U(body+4)]=U(body+16)
        elif tag in (0x0c,0x1c): segs.append((body,body+ln))
        pos=body+ln
    names={c:strings.get(n,'?').replace('/','.') for c,n in classname.items()}
    def scan(cb):
        for (s,e) in segs:
            p=s
            while p<e:
                t=m[p]; p+=1
                if t==0xff: p+=8
                elif t==1: p+=16
                elif t in (2,3): p+=16
                elif t==4: p+=12
                elif t==5: p+=8
                elif t==6: p+=12
                elif t==7: p+=8
                elif t==8: p+=16
                elif t==0x20:
                    cid=U(p); sup=U(p+12); q=p+64
                    cp=struct.unpack_from('>H',m,q)[0]; q+=2
                    for _ in range(cp):
                        ty=m[q+2]; q+=3+TS[ty]
                    ns=struct.unpack_from('>H',m,q)[0]; q+=2
                    for _ in range(ns):
                        ty=m[q+8]; q+=9+TS[ty]
                    nf=struct.unpack_from('>H',m,q)[0]; q+=2
                    fl=[]
                    for _ in range(nf):
                        fl.append(m[q+8]); q+=9
                    cb('class',(cid,sup,fl)); p=q
                elif t==0x21:
                    oid=U(p); cid=U(p+12); n=struct.unpack_from('>I',m,p+20)[0]
                    cb('inst',(oid,cid,p+24,n)); p+=24+n
                elif t==0x22:
                    oid=U(p); n=struct.unpack_from('>I',m,p+12)[0]; acid=U(p+16)
                    cb('oarr',(oid,acid,p+24,n)); p+=24+8*n
                elif t==0x23:
                    oid=U(p); n=struct.unpack_from('>I',m,p+12)[0]; ty=m[p+16]
                    cb('parr',(oid,ty,n)); p+=17+n*TS[ty]
                else: raise Exception('tag %x at %d'%(t,p))
    arrays={}
    def pass1(kind,d):
        if kind=='class': classes[d[0]]=(d[1],d[2])
        elif kind=='oarr': arrays[d[0]]=('Object[]',16+4*d[3])
        elif kind=='parr' and d[1]==8: arrays[d[0]]=('byte[]',16+d[2])
        elif kind=='parr' and d[1]==11: arrays[d[0]]=('long[]',16+8*d[2])
    scan(pass1)
    layout={}
    def lay(c):
        if c in layout: return layout[c]
        if c not in classes: layout[c]=[]; return []
        sup,fl=classes[c]; r=list(fl)+(lay(sup) if sup else [])
        layout[c]=r; return r
    refs=collections.Counter(); rbytes=collections.Counter()
    def pass2(kind,d):
        if kind=='inst':
            oid,cid,q,n=d
            for ty in lay(cid):
                if ty==2:
                    v=U(q)
                    a=arrays.get(v)
                    if a: refs[(names.get(cid,'?'),a[0])]+=1; rbytes[(names.get(cid,'?'),a[0])]+=a[1]
                    q+=8
                else: q+=TS[ty]
        elif kind=='oarr':
            oid,acid,q,n=d
            for i in range(n):
                v=U(q+8*i)
                if v:
                    a=arrays.get(v)
                    if a: refs[(names.get(acid,'?'),a[0])]+=1; rbytes[(names.get(acid,'?'),a[0])]+=a[1]
    scan(pass2)
    return refs,rbytes
if len(sys.argv) < 3:
    sys.exit(__doc__)
top=int(sys.argv[3]) if len(sys.argv) > 3 else 30
ra,ba=load(sys.argv[2]); rb,bb=load(sys.argv[1])
keys=set(ba)|set(bb)
rows=sorted(keys,key=lambda k: -(ba[k]-bb[k]))
for k in rows[:top]:
    print('%+10d bytes %+7d refs  %-8s held by %s'%(ba[k]-bb[k],ra[k]-rb[k],k[1],k[0]))
