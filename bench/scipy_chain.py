"""The N-link pendulum chain of bench/cases.json's `chainBodies` in the augmented
(index-1) formulation, written in NumPy for SciPy's Radau: the same equations odelab's
"augmented" formulation integrates (Gil, Sanfelice & Nikravesh, Local Linearization
Method, §2 eq. 9), without stabilisation (no Baumgarte, no projection), as odelab's
augmented row runs.

State y = (q, q̇), q = (x1, y1, φ1, …, xN, yN, φN): the centre and angle (from the
x axis) of each uniform rod of length L and mass m, J = m L²/12. Constraints: rod 1's
left end at the origin (O_x, O_y) and rod i-1's right end on rod i's left end
(hinge_x[i], hinge_y[i], i = 2..N). At every f-evaluation q̈ comes from the
saddle-point system

    [ M    Φ_qᵀ ] [ q̈ ]   [ Q ]
    [ Φ_q  0    ] [ λ ] = [ γ ],   γ = −(Φ_q q̇)_q q̇,

solved densely (numpy.linalg.solve, LU with partial pivoting, as odelab's nalgebra LU).
`f` is vectorised (SciPy's finite-difference Jacobian evaluates its columns in one
batched solve).
"""

import numpy as np


class Chain:
    def __init__(self, n, length=0.5, mass=1.0, g=9.81):
        self.n_bodies = n
        self.L, self.m, self.g = length, mass, g
        nq, nc = 3 * n, 2 * n
        self.nq, self.nc = nq, nc
        self.mass = np.tile([mass, mass, mass * length**2 / 12.0], n)
        self.force = np.tile([0.0, -mass * g, 0.0], n)
        # Row r of Φ_q: the constant ±1 entries on x/y, and the φ entries that vary.
        const_r, const_c, const_v = [0, 1], [0, 1], [1.0, 1.0]
        for i in range(1, n):
            rx, ry = 2 * i, 2 * i + 1
            const_r += [rx, rx, ry, ry]
            const_c += [3 * (i - 1), 3 * i, 3 * (i - 1) + 1, 3 * i + 1]
            const_v += [1.0, -1.0, 1.0, -1.0]
        self.const = (np.array(const_r), np.array(const_c), np.array(const_v))
        # φ entries: (row, body, kind) with kind 'x' -> +(L/2) sin φ (O_x) or
        # −(L/2) sin φ (hinges), 'y' -> −(L/2) cos φ (O_y) or +(L/2) cos φ (hinges).
        rows_x = [0] + [2 * i for i in range(1, n) for _ in range(2)]
        body_x = [0] + [b for i in range(1, n) for b in (i - 1, i)]
        sign_x = [1.0] + [-1.0] * (2 * (n - 1))
        rows_y = [1] + [2 * i + 1 for i in range(1, n) for _ in range(2)]
        body_y = [0] + [b for i in range(1, n) for b in (i - 1, i)]
        sign_y = [-1.0] + [1.0] * (2 * (n - 1))
        self.rx, self.bx, self.sx = np.array(rows_x), np.array(body_x), np.array(sign_x)
        self.ry, self.by, self.sy = np.array(rows_y), np.array(body_y), np.array(sign_y)
        # The saddle-point matrix's constant part.
        a = np.zeros((nq + nc, nq + nc))
        a[np.arange(nq), np.arange(nq)] = self.mass
        r, c, v = self.const
        a[nq + r, c] = v
        a[c, nq + r] = v
        self.a0 = a

    def initial(self, theta0):
        """The chain straight at angle theta0 from the x axis, at rest."""
        i = np.arange(self.n_bodies)
        q = np.empty(self.nq)
        q[0::3] = (i + 0.5) * self.L * np.cos(theta0)
        q[1::3] = (i + 0.5) * self.L * np.sin(theta0)
        q[2::3] = theta0
        return np.concatenate([q, np.zeros(self.nq)])

    def phi(self, q):
        """Φ(q), in the same rows as Φ_q."""
        h = self.L / 2
        x, y, p = q[0::3], q[1::3], q[2::3]
        out = np.empty(self.nc)
        out[0] = x[0] - h * np.cos(p[0])
        out[1] = y[0] - h * np.sin(p[0])
        out[2::2] = x[:-1] + h * np.cos(p[:-1]) - x[1:] + h * np.cos(p[1:])
        out[3::2] = y[:-1] + h * np.sin(p[:-1]) - y[1:] + h * np.sin(p[1:])
        return out

    def f(self, _t, y):
        y = np.asarray(y)
        single = y.ndim == 1
        ys = y[:, None] if single else y
        k = ys.shape[1]
        nq, nc, h = self.nq, self.nc, self.L / 2
        p, pd = ys[2:nq:3], ys[nq + 2 :: 3]  # (N, k)
        s, c = np.sin(p), np.cos(p)
        a = np.broadcast_to(self.a0, (k, nq + nc, nq + nc)).copy()
        kk = np.arange(k)[:, None]
        # Φ_q's φ entries: x rows ±(L/2) sin φ, y rows ∓(L/2) cos φ.
        vx = (self.sx[:, None] * h * s[self.bx]).T  # (k, len)
        vy = (self.sy[:, None] * h * c[self.by]).T
        col_x, col_y = 3 * self.bx + 2, 3 * self.by + 2
        a[kk, nq + self.rx, col_x] = vx
        a[kk, col_x, nq + self.rx] = vx
        a[kk, nq + self.ry, col_y] = vy
        a[kk, col_y, nq + self.ry] = vy
        # γ = −(Φ_q q̇)_q q̇: the φ̇² terms of Φ̈.
        w2 = pd * pd
        rhs = np.zeros((k, nq + nc))
        rhs[:, :nq] = self.force
        gamma = np.zeros((nc, k))
        gamma[0] = -h * c[0] * w2[0]
        gamma[1] = -h * s[0] * w2[0]
        gamma[2::2] = h * (c[:-1] * w2[:-1] + c[1:] * w2[1:])
        gamma[3::2] = h * (s[:-1] * w2[:-1] + s[1:] * w2[1:])
        rhs[:, nq:] = gamma.T
        sol = np.linalg.solve(a, rhs[:, :, None])[:, :nq, 0]  # (k, nq)
        out = np.concatenate([ys[nq:], sol.T], axis=0)
        return out[:, 0] if single else out
