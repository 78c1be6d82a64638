#!/usr/bin/env python3
# Refits the polynomial Q of core/backend/cpu/gelu.hpp (not run by the build): erfc(a) = t e^{-a^2} Q(t) with
# t = 1 / (1 + a / 2), a >= 0, so Q(t) = erfc(a) e^{a^2} / t on t in [0, 1] (Q(0) = 1 / (2 sqrt(pi))).
# Relative least squares of degree 10 on 200 Chebyshev nodes, in 40-digit arithmetic (python3-mpmath);
# prints the coefficients rounded to float, as gelu.hpp has them, and the worst relative error of t e^{-a^2} Q(t) against erfc in double.
import math
import struct

import mpmath as mp

mp.mp.dps = 40
DEGREE, NODES, HALF = 10, 200, mp.mpf(1) / 2


def q_exact(t):
    if t == 0:
        return HALF / mp.sqrt(mp.pi)
    a = (1 - t) / (HALF * t)
    return mp.erfc(a) * mp.exp(a * a) / t


def fit():
    nodes = [(1 - mp.cos(mp.pi * (k + HALF) / NODES)) / 2 for k in range(NODES)]
    rows = mp.matrix(NODES, DEGREE + 1)
    for i, t in enumerate(nodes):
        q = q_exact(t)
        for j in range(DEGREE + 1):
            rows[i, j] = t**j / q  # relative: each row divided by the value it fits
    ones = mp.matrix([1] * NODES)
    coef = mp.lu_solve(rows.T * rows, rows.T * ones)
    return [to_float32(coef[j]) for j in range(DEGREE + 1)]


def to_float32(x):
    return struct.unpack('f', struct.pack('f', float(x)))[0]


def worst_error(coef):
    worst = 0.0
    for k in range(1, 4000):
        a = 12.0 * k / 4000
        t = 1 / (1 + a / 2)
        q = sum(c * t**j for j, c in enumerate(coef))
        exact = float(mp.erfc(a))
        worst = max(worst, abs(t * math.exp(-a * a) * q - exact) / exact)
    return worst


coef = fit()
print(', '.join('%.9gf' % c for c in coef))
print('worst relative error, a in (0, 12]: %.3g' % worst_error(coef))
