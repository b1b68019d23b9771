"""Issue 8, round 30: the groups' shell tests with a tighter centre. Same state and groups as
boids_round30_core_shell_model.py; c either the box centre (today) or the centre of the smallest enclosing sphere
of the members (approximated by 2,000 Badoiu-Clarkson steps), R the largest member distance from c.
Shell tests: m x Q, Q the candidates within R of either rule sphere (5 and 3).
Run: /usr/bin/python3 boids_round30_centre_model.py s5M_55.csv (numpy, scipy; 2 minutes). Output
(2026-12-03):
box: R mean 0.1454, shell tests per group 1377
sphere: R mean 0.1339, shell tests per group 1268
sphere / box: 0.921x
"""
import sys, numpy as np
sys.argv = sys.argv[:2]
src = open(__file__.replace('centre_model.py', 'core_shell_model.py')).read()
src = src[:src.index('members = sum(')]
exec(src)
def enclosing(q):
    c = (q.min(0) + q.max(0)) / 2
    for k in range(1, 2001):
        f = q[np.argmax(np.linalg.norm(q - c, axis=1))]
        c = c + (f - c) / (k + 1)
    return c
tests = {'box': 0.0, 'sphere': 0.0}; Rs = {'box': [], 'sphere': []}
for g in groups:
    q = P[g]; m = len(g)
    for name, c in (('box', (q.min(0) + q.max(0)) / 2), ('sphere', enclosing(q))):
        Rg = np.linalg.norm(q - c, axis=1).max()
        near = np.array(tree.query_ball_point(c, radii[0] + Rg))
        D = np.linalg.norm(P[near] - c, axis=1)
        gap = np.min(np.abs(D[:, None] - np.array(radii)[None, :]), axis=1)
        tests[name] += m * np.count_nonzero(gap <= Rg); Rs[name].append(Rg)
for name in tests:
    print(f"{name}: R mean {np.mean(Rs[name]):.4f}, shell tests per group {tests[name] / len(groups):.0f}")
print(f"sphere / box: {tests['sphere'] / tests['box']:.3f}x")
