#!/usr/bin/python3
"""Issue 8, fifteenth round: where the per-lane candidate loop's passes go (a CPU model, uniform random boids).

    /usr/bin/python3 boids_round15_loop_passes_model.py N W SPLIT WARPS   (numpy)

Sorts N uniform boids in [-100, 100]^3 by cell as `fast` does (cells W x 5 units across along y and z,
SPLIT times narrower along x, x fastest), walks each lane's half-chord rows for WARPS sampled warps,
and counts the loop's passes per warp (two candidates a pass within a slot range, the warp waiting for
its longest lane in each chunk of rows): chunks of 13 rows (today's 15 entries), of 29 rows, of all
rows, and the longest lane's total / 2 (no odd ranges, no chunks). The own-boid split is ignored.
Output of this round (1M: 1000000 0.5 4 150; 5M: 5000000 0.3333 8 60):
  N=1000000 w=0.5 split=4: rows/lane 21.0 cand/boid 129.3
    chunk 13: passes/warp 89.0 / chunk 29: 81.6 / all rows: 81.6 / max-lane total/2 76.0
  N=5000000 w=0.3333 split=8: rows/lane 40.5 cand/boid 505.4
    chunk 13: passes/warp 315.0 / chunk 29: 299.8 / all rows: 284.2 / max-lane total/2 273.7
"""
import numpy as np, sys


def sortedLanes(N, w, split, rng, scale=100.0, r=5.0):
    """N uniform boids in [-scale, scale]^3 (drawn from rng), sorted by cell as `fast` sorts them (cells w x r
    across along y and z, split times narrower along x, x fastest). Returns (positions in sorted order, lane_rows),
    where lane_rows(p) lists the candidates of each half-chord row of the boid at p, in walk order (the GPU's
    forEachLaneRunFrom). boids_round16_models.py imports it."""
    P=rng.uniform(-scale,scale,(N,3)).astype(np.float32)
    cw=w*r; res=int(np.ceil(2*scale/cw)); cwx=(2*scale/res)/split; cwyz=2*scale/res; resx=res*split
    ix=np.minimum((P[:,0]+scale)//cwx,resx-1).astype(np.int64)
    iy=np.minimum((P[:,1]+scale)//cwyz,res-1).astype(np.int64)
    iz=np.minimum((P[:,2]+scale)//cwyz,res-1).astype(np.int64)
    cell=ix+resx*(iy+res*iz)
    order=np.argsort(cell,kind='stable'); P=P[order]; cell=cell[order]
    counts=np.bincount(cell,minlength=resx*res*res); start=np.concatenate([[0],np.cumsum(counts)])
    def gap(p,c,cwid):
        lo=-scale+c*cwid; hi=lo+cwid
        return np.where(p<lo,lo-p,np.where(p>hi,p-hi,0.0))
    def lane_rows(p):
        rows=[]
        for z in range(int((p[2]-r+scale)//cwyz),int((p[2]+r+scale)//cwyz)+1):
            if z<0 or z>=res: continue
            gz=gap(p[2],z,cwyz)**2
            if gz>r*r: continue
            for y in range(int((p[1]-r+scale)//cwyz),int((p[1]+r+scale)//cwyz)+1):
                if y<0 or y>=res: continue
                g=gz+gap(p[1],y,cwyz)**2
                if g>r*r: continue
                h=np.sqrt(r*r-g)
                x0=max(0,int((p[0]-h+scale)//cwx)); x1=min(resx-1,int((p[0]+h+scale)//cwx))
                if x0>x1: continue
                base=resx*(y+res*z)
                rows.append(int(start[base+x1+1]-start[base+x0]))
        return rows
    return P, lane_rows


if __name__ == '__main__':
    N=int(sys.argv[1]); w=float(sys.argv[2]); split=int(sys.argv[3])
    rng=np.random.default_rng(1)
    P, lane_rows = sortedLanes(N, w, split, rng)
    nw=N//32; ws=rng.choice(nw,int(sys.argv[4]),replace=False)
    res_={13:0,29:0,10**6:0}; ideal=0; cand=0
    for wi in ws:
        lanes=[lane_rows(P[wi*32+l]) for l in range(32)]
        for ch in res_:
            tot=0; k=0
            maxrows=max(len(x) for x in lanes)
            for s in range(0,maxrows,ch):
                tot+=max(sum((c+1)//2 for c in L[s:s+ch] if c>0) for L in lanes)
            res_[ch]+=tot
        cand+=sum(sum(L) for L in lanes)
        ideal+=max(sum(L) for L in lanes)/2
    nws=len(ws)
    print(f"N={N} w={w} split={split}: rows/lane {np.mean([len(lane_rows(P[wi*32])) for wi in ws]):.1f} cand/boid {cand/nws/32:.1f}")
    for ch,v in res_.items(): print(f"  chunk {ch}: passes/warp {v/nws:.1f}")
    print(f"  max-lane total/2 {ideal/nws:.1f}")
