"""Issue 8, round 24 (bench/notes/boids.md): which boids the groups leave, and how many other
ways of forming groups would take. A CPU model on a 200,000-boid state at the 5M density (as
round 23's model: `flocklife boids --backend cpu --n 200000 --scale 34.2 --seed 1 --steps 55 --out
s5M_55.csv`, 92 s on 2 cores). The grid as `fast` builds it at 5M (cells 0.33 x 5 units along y
and z, split 8 along x); groups joined greedily from a cube's x-cells in slot order while their box
has a half-diagonal <= 0.4 and they hold <= 32 boids, as groupKernel does. "small": boids in a run
of fewer than the minimum; "wide": boids in a cell wider than the radius; n5: neighbours within 5,
the per-boid walk's cost roughly.

Run: /usr/bin/python3 boids_round24_group_cover_model.py s5M_55.csv (numpy, scipy). Output
(2026-12-03):
cube, <=32, mmin12: grouped 64.6% (8642 groups, mean 15.0); left 35.4%: small 33.7% wide 1.6%; left share of n5 33.7%; n5 per left boid 240 vs all 252
row (across cubes), <=32, mmin12: grouped 68.3% (9082 groups, mean 15.0); left 31.7%: small 30.1% wide 1.6%; left share of n5 30.0%; n5 per left boid 238 vs all 252
cube, <=64, mmin12: grouped 64.6% (8642 groups, mean 15.0); left 35.4%: small 33.7% wide 1.6%; left share of n5 33.7%; n5 per left boid 240 vs all 252
cube, <=32, mmin6: grouped 89.9% (14463 groups, mean 12.4); left 10.1%: small 8.4% wide 1.6%; left share of n5 9.1%; n5 per left boid 228 vs all 252
cells sub-ordered (0.3), no joins, mmin12: grouped 38.3% (5401 groups, mean 14.2); left 61.7%: small 61.7% wide 0.0%; left share of n5 60.5%; n5 per left boid 247 vs all 252
"""
import sys, numpy as np
from scipy.spatial import cKDTree
a=np.loadtxt(sys.argv[1],delimiter=',',skiprows=1); P=a[:,:3]; N=len(P)
scale=34.2; w=0.33; S=8
tree=cKDTree(P)
n5=np.array([len(x)-1 for x in tree.query_ball_point(P,5.0,return_sorted=False)])
R=int(np.floor(2*scale/(w*5))); cw=2*scale/R
cx=np.clip(np.floor((P[:,0]+scale)/(cw/S)).astype(int),0,R*S-1)
cy=np.clip(np.floor((P[:,1]+scale)/cw).astype(int),0,R-1)
cz=np.clip(np.floor((P[:,2]+scale)/cw).astype(int),0,R-1)
cell=cx+R*S*(cy+R*cz)
order=np.argsort(cell,kind='stable')
cs=cell[order]
bounds=np.flatnonzero(np.diff(cs))+1
starts=np.r_[0,bounds]; ends=np.r_[bounds,N]
cellids=cs[starts]
def halfdiag(idx):
    q=P[idx]; return np.linalg.norm(q.max(0)-q.min(0))/2
def groups_greedy(runs, dmax, cap, cross_cube):
    """runs: list of (cellid, slot indices array) in slot order. join consecutive cells (same cube unless cross_cube, same row always)"""
    out=[]; cur=[]; curcell=None
    def flush():
        if cur: out.append(np.concatenate(cur))
    for cid, idx in runs:
        x=cid%(R*S); row=cid//(R*S)
        if cur:
            px=curcell%(R*S); prow=curcell//(R*S)
            adjacent = row==prow and x==px+1 and (cross_cube or x//S==px//S)
            cand=np.concatenate(cur+[idx])
            if adjacent and len(cand)<=cap and halfdiag(cand)<=dmax:
                cur.append(idx); curcell=cid; continue
            flush(); cur=[]
        if len(idx)<=cap and halfdiag(idx)<=dmax:
            cur=[idx]; curcell=cid
        elif halfdiag(idx)<=dmax:
            for k in range(0,len(idx),cap): out.append(idx[k:k+cap])
            cur=[]
        else:
            out.append(('wide',idx)); cur=[]
    flush()
    return out
runs=[(cellids[k], order[starts[k]:ends[k]]) for k in range(len(starts))]
def report(name, gs, mmin):
    grouped=np.zeros(N,bool); reason={'small':0,'wide':0}
    for g in gs:
        if isinstance(g,tuple): reason['wide']+=len(g[1]); continue
        if len(g)>=mmin: grouped[g]=True
        else: reason['small']+=len(g)
    left=~grouped
    sizes=[len(g) for g in gs if not isinstance(g,tuple) and len(g)>=mmin]
    print(f"{name}: grouped {grouped.mean():.1%} ({len(sizes)} groups, mean {np.mean(sizes):.1f}); left {left.mean():.1%}: small {reason['small']/N:.1%} wide {reason['wide']/N:.1%}; left share of n5 {n5[left].sum()/n5.sum():.1%}; n5 per left boid {n5[left].mean():.0f} vs all {n5.mean():.0f}")
for dmax in (0.4,):
    report("cube, <=32, mmin12", groups_greedy(runs,dmax,32,False),12)
    report("row (across cubes), <=32, mmin12", groups_greedy(runs,dmax,32,True),12)
    report("cube, <=64, mmin12", groups_greedy(runs,dmax,64,False),12)
    report("cube, <=32, mmin6", groups_greedy(runs,dmax,32,False),6)
# wide cells: sub-order by a finer key (cells of 0.2 in y,z within the cell) then greedy
def subsplit(runs, fine):
    out=[]
    for cid, idx in runs:
        if halfdiag(idx)<=0.4: out.append((cid,idx)); continue
        q=P[idx]; key=(np.floor(q[:,1]/fine).astype(int)*100003+np.floor(q[:,2]/fine).astype(int))*100003+np.floor(q[:,0]/fine).astype(int)
        o=idx[np.argsort(key,kind='stable')]
        # greedy runs within the cell
        cur=[]
        for j in o:
            cand=cur+[j]
            if len(cand)<=32 and halfdiag(np.array(cand))<=0.4: cur=cand
            else:
                out.append((-1,np.array(cur))); cur=[j]
        if cur: out.append((-1,np.array(cur)))
    return out
# each run a group candidate (no joining across cells)
report("cells sub-ordered (0.3), no joins, mmin12", [idx for _, idx in subsplit(runs, 0.3)], 12)
