"""Issue 8, round 25 (bench/notes/boids.md): a second, looser tier of groups, modelled. On round 24's
200,000-boid CPU state at the 5M density (`flocklife boids --backend cpu --n 200000 --scale 34.2 --seed 1
--steps 55 --out s5M_55.csv`): groups formed per cube as groupKernel forms them (radius 0.4, 12 to 32
members), then the runs they leave (adjacent in slot order within the cube) joined into loose groups of
half-diagonal <= d2 and at least m2 boids. Cost per boid in rough warp instructions (a walk of twice the
candidates within 5 + radius at 60 per 32, shell tests at 22 per 32 member-candidate pairs, 1,400 fixed;
a boid's own walk 2 x neighbours x 41 / 32): only the ratios mean anything.

Run: /usr/bin/python3 boids_round25_loose_groups.py s5M_55.csv (numpy, scipy; it takes the grid from
boids_round25_cube_joins.py in this folder). Output (2026-12-03):
d2=None m2=12: tight 64.7% (8646), loose 0.0% (0, mean rad 0.00), left 35.3%; instr/boid tight 231 loose 0 (their solo 0) left 616; total 367
d2=0.6 m2=12: tight 64.7% (8646), loose 2.1% (265, mean rad 0.46), left 33.2%; instr/boid tight 231 loose 297 (their solo 580) left 619; total 361
d2=0.8 m2=12: tight 64.7% (8646), loose 3.0% (370, mean rad 0.53), left 32.4%; instr/boid tight 231 loose 311 (their solo 578) left 620; total 359
d2=1.0 m2=12: tight 64.7% (8646), loose 3.4% (426, mean rad 0.58), left 31.9%; instr/boid tight 231 loose 319 (their solo 570) left 621; total 358
d2=1.2 m2=12: tight 64.7% (8646), loose 3.5% (433, mean rad 0.58), left 31.9%; instr/boid tight 231 loose 320 (their solo 570) left 621; total 358
d2=0.8 m2=16: tight 64.7% (8646), loose 1.7% (186, mean rad 0.53), left 33.6%; instr/boid tight 231 loose 292 (their solo 579) left 618; total 362
d2=1.0 m2=16: tight 64.7% (8646), loose 2.0% (213, mean rad 0.57), left 33.4%; instr/boid tight 231 loose 298 (their solo 574) left 619; total 362
d2=1.0 m2=20: tight 64.7% (8646), loose 0.6% (56, mean rad 0.57), left 34.7%; instr/boid tight 231 loose 262 (their solo 550) left 617; total 365
The last three lines: the share of the boids with 12 or more boids (themselves included) within r:
r 0.2: 51.4%, median 12
r 0.4: 75.9%, median 14
r 0.8: 80.1%, median 15
"""
import sys
import numpy as np
from scipy.spatial import cKDTree
from boids_round25_cube_joins import hd, sorted_cells  # the grid and groupKernel's box test, as that model has them
a=np.loadtxt(sys.argv[1],delimiter=',',skiprows=1); P=a[:,:3]; N=len(P)
scale=34.2; w=0.33; S=8
tree=cKDTree(P)
R, order, starts, ends, cellids = sorted_cells(P, scale, w, S)
def box(idx):
    q=P[idx]; return q.min(0), q.max(0)
# replicate groupKernel per cube, with an optional loose tier
def form(d1, mmin, d2=None, m2=12):
    groups=[]  # (idx array, tier)
    left=[]
    cubes={}
    for k in range(len(starts)):
        cid=cellids[k]; x=cid%(R*S); row=cid//(R*S)
        cubes.setdefault((row,x//S),[]).append(k)
    for key,ks in cubes.items():
        loose=None  # [b,e,lo,hi]
        def flush_loose():
            nonlocal loose
            if loose is None: return
            b,e,lo,hi=loose
            if e-b>=m2: groups.append((order[b:e],2))
            else: left.extend(order[b:e])
            loose=None
        def small(b,e,lo,hi):
            nonlocal loose
            if d2 is None: left.extend(order[b:e]); return
            if loose is not None and loose[1]==b:
                nlo=np.minimum(loose[2],lo); nhi=np.maximum(loose[3],hi)
                if e-loose[0]<=32 and hd(nlo,nhi)<=d2: loose=[loose[0],e,nlo,nhi]; return
            flush_loose()
            if e-b<=32 and hd(lo,hi)<=d2: loose=[b,e,lo,hi]
            else: left.extend(order[b:e])
        def emit(b,e,lo,hi):
            if e-b<mmin: small(b,e,lo,hi); return
            groups.append((order[b:e],1))
        gb=ge=starts[ks[0]]; lo=hi=None
        for k in ks:
            b=starts[k]; e=ends[k]
            assert b==ge
            clo,chi=box(order[b:e])
            mlo=clo if gb==ge else np.minimum(lo,clo); mhi=chi if gb==ge else np.maximum(hi,chi)
            if e-gb<=32 and hd(mlo,mhi)<=d1: ge=e; lo,hi=mlo,mhi; continue
            if ge>gb: emit(gb,ge,lo,hi)
            if e-b<=32 and hd(clo,chi)<=d1: gb=b; lo,hi=clo,chi
            else:
                if hd(clo,chi)<=d1:
                    for k0 in range(b,e,32): emit(k0,min(k0+32,e),clo,chi)
                else: small(b,e,clo,chi)  # wide cell
                gb=e
            ge=e
        if ge>gb: emit(gb,ge,lo,hi)
        flush_loose()
    return groups, np.array(left,int)
# cost model (candidate units): solo walk ~ 2*n5 candidates * 41; group: walk candidates in ball 5+rad (x2 grid overhead) * 60/32 per lane... use warp-level
n5=np.array([len(x)-1 for x in tree.query_ball_point(P,5.0,return_sorted=False)])
def gcost(idx):
    q=P[idx]; lo,hi=q.min(0),q.max(0); c=(lo+hi)/2; rad=np.sqrt(((q-c)**2).sum(1).max())
    walk=len(tree.query_ball_point(c,5+rad))*2     # candidates walked (grid overhead ~2)
    shell5=len(tree.query_ball_point(c,5+rad))-len(tree.query_ball_point(c,max(5-rad,0)))
    shell3=len(tree.query_ball_point(c,3+rad))-len(tree.query_ball_point(c,max(3-rad,0)))
    shell=max(shell5,shell3)  # union approx (shell5 and shell3 disjoint mostly -> sum)
    shell=shell5+shell3
    m=len(idx)
    # warp instr: walk: per 32 candidates ~60 instr ; shell: per 32 (member,candidate) tests ~20 instr ; fixed 1400
    return walk/32*60 + shell*m/32*22 + 1400, rad
solo=lambda idx: (2*n5[idx]/32*41*32/32).sum()  # per boid ~ 2*n5 candidates, ~41 lane-instr per candidate -> warp instr/boid = 2*n5*41/32
for args in [(0.4,12,None),(0.4,12,0.6),(0.4,12,0.8),(0.4,12,1.0),(0.4,12,1.2),(0.4,12,0.8,16),(0.4,12,1.0,16),(0.4,12,1.0,20)]:
    d1,mmin,d2=args[:3]; m2=args[3] if len(args)>3 else 12
    gs,left=form(d1,mmin,d2,m2)
    g1=[g for g,t in gs if t==1]; g2=[g for g,t in gs if t==2]
    n1=sum(len(g) for g in g1); n2=sum(len(g) for g in g2)
    c1=sum(gcost(g)[0] for g in g1); c2=sum(gcost(g)[0] for g in g2)
    cl=(2*n5[left]*41/32).sum()
    solo2=sum((2*n5[g]*41/32).sum() for g in g2)
    print(f"d2={d2} m2={m2}: tight {n1/N:.1%} ({len(g1)}), loose {n2/N:.1%} ({len(g2)}, mean rad {np.mean([gcost(g)[1] for g in g2]) if g2 else 0:.2f}), left {len(left)/N:.1%}; "
          f"instr/boid tight {c1/max(n1,1):.0f} loose {c2/max(n2,1):.0f} (their solo {solo2/max(n2,1):.0f}) left {cl/max(len(left),1):.0f}; total {(c1+c2+cl)/N:.0f}")
for r in (0.2,0.4,0.8):
    c=np.array([len(x) for x in tree.query_ball_point(P,r,return_sorted=False)])
    print(f"r {r}: {(c>=12).mean():.1%}, median {np.median(c):.0f}")
