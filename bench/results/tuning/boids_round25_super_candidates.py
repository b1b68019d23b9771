"""Issue 8, round 25 (bench/notes/boids.md): groups as candidates ("super-candidates"), modelled. On the
200,000-boid CPU state at the 5M density of round 24's model (`flocklife boids --backend cpu --n 200000
--scale 34.2 --seed 1 --steps 55 --out s5M_55.csv`), groups formed as groupKernel forms them (cubes of
0.33 x 5 units, split 8 along x, radius 0.4, 12 to 32 members). A walk would visit each group as one item
(its centre, radius and sums) and take its sums whole where the group lies inside a rule's ball around the
querying centre (or boid) for both distinct radii (5 and 3), skip it where it lies outside, and otherwise
visit its members one by one. Items counted against today's (every boid within 5 + the querying group's
radius), 2,000 sampled groups and 2,000 sampled boids that no group took. Grid overheads left out.

Run: /usr/bin/python3 boids_round25_super_candidates.py s5M_55.csv (numpy, scipy; it takes the groups from
boids_round25_cube_joins.py in this folder). Output (2026-12-03):
groups 8646, grouped 64.7%, mean size 15.0, radius mean 0.148 p90 0.262
group walk: items now 285, with super-candidates 263 (0.92x)
left-out boid walk: items now 241, with super-candidates 191 (0.79x)
groups within reach that straddle a sphere: 48% for a group's walk, 30% for a left-out boid's
"""
import sys
import numpy as np
from scipy.spatial import cKDTree
from boids_round25_cube_joins import group_slots  # groupKernel's groups, as that model forms them
P=np.loadtxt(sys.argv[1],delimiter=',',skiprows=1)[:,:3]; N=len(P)
Q, groups = group_slots(P, 34.2, 0.33, 8)
gid=-np.ones(N,int)
cent=[];rad=[];size=[]
for i,(b,e) in enumerate(groups):
    q=Q[b:e]; c=(q.min(0)+q.max(0))/2; cent.append(c); rad.append(np.sqrt(((q-c)**2).sum(1).max())); size.append(e-b); gid[b:e]=i
cent=np.array(cent); rad=np.array(rad); size=np.array(size)
left=np.flatnonzero(gid<0)
print(f"groups {len(groups)}, grouped {(gid>=0).mean():.1%}, mean size {size.mean():.1f}, radius mean {rad.mean():.3f} p90 {np.percentile(rad,90):.3f}")
# super-candidates: group centres (with radius) + left-out boids (radius 0)
SC=np.r_[cent, Q[left]]; SR=np.r_[rad, np.zeros(len(left))]; SN=np.r_[size, np.ones(len(left),int)]
ng=len(cent)
st=cKDTree(SC); bt=cKDTree(Q)
rmax=rad.max()
rng=np.random.default_rng(1)
def query(c, Rq, nsamp_members):
    """items visited now (boids within 5+Rq) and with super-candidates: super items within 5+Rq+rmax,
    plus members of straddling groups; shell tests per member (now vs new)."""
    now_items=len(bt.query_ball_point(c,5+Rq))
    idx=np.array(st.query_ball_point(c,5+Rq+rmax),int)
    D=np.linalg.norm(SC[idx]-c,axis=1); rr=SR[idx]
    unpack=np.zeros(len(idx),bool)
    for r in (5.0,3.0):
        inside=D+rr+Rq<r; outside=D-rr-Rq>=r
        unpack|=~inside&~outside&(idx<ng)
    new_items=len(idx)+SN[idx][unpack].sum()
    return now_items,new_items
# group queries
gs=rng.choice(ng,2000,replace=False)
gn=np.array([query(cent[i],rad[i],size[i]) for i in gs])
# single queries (left-out boids)
ls=rng.choice(left,2000,replace=False)
sn=np.array([query(Q[i],0.0,1) for i in ls])
print(f"group walk: items now {gn[:,0].mean():.0f}, with super-candidates {gn[:,1].mean():.0f} ({gn[:,1].sum()/gn[:,0].sum():.2f}x)")
print(f"left-out boid walk: items now {sn[:,0].mean():.0f}, with super-candidates {sn[:,1].mean():.0f} ({sn[:,1].sum()/sn[:,0].sum():.2f}x)")
# How many of the groups visited by a group's walk straddle a sphere (visited member by member)
def straddle(c, Rq):
    idx=np.array(st.query_ball_point(c,5+Rq+rmax),int); idx=idx[idx<ng]
    D=np.linalg.norm(SC[idx]-c,axis=1); rr=SR[idx]; un=np.zeros(len(idx),bool)
    for r in (5.0,3.0):
        un|=~(D+rr+Rq<r)&~(D-rr-Rq>=r)
    return un.sum(), len(idx)
sg=np.array([straddle(cent[i],rad[i]) for i in gs]); sl=np.array([straddle(Q[i],0.0) for i in ls])
print(f"groups within reach that straddle a sphere: {sg[:,0].sum()/sg[:,1].sum():.0%} for a group's walk, {sl[:,0].sum()/sl[:,1].sum():.0%} for a left-out boid's")
