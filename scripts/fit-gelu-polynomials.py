#!/usr/bin/env python3
# Refits the polynomials of core/backend/cpu/gelu.hpp (not run by the build), each by relative least squares
# on 200 Chebyshev nodes in 40-digit arithmetic (python3-mpmath); prints the coefficients rounded to float,
# as gelu.hpp has them, and the worst relative error of the float coefficients against the function in
# double:
# - Q, degree 10: erfc(a) = t e^{-a^2} Q(t) with t = 1 / (1 + a / 2), a >= 0, so Q(t) = erfc(a) e^{a^2} / t on
#   t in [0, 1] (Q(0) = 1 / (2 sqrt(pi))); the error is that of t e^{-a^2} Q(t) against erfc, a in (0, 12].
# - P, degree 4: erf(z) = z P(s) with s = z^2 in [0, 0.49] (GELU's lanes near zero).
# - E, degree 5: e^{-s} on s in [0, 0.49] (the density's factor on the same lanes).
import math
import struct

import mpmath as mp

mp.mp.dps = 40
NODES, HALF, NEAR = 200, mp.mpf(1) / 2, mp.mpf('0.49')


def q_exact(t):
    if t == 0:
        return HALF / mp.sqrt(mp.pi)
    a = (1 - t) / (HALF * t)
    return mp.erfc(a) * mp.exp(a * a) / t


def erf_over_z(s):
    return 2 / mp.sqrt(mp.pi) if s == 0 else mp.erf(mp.sqrt(s)) / mp.sqrt(s)


def exp_minus(s):
    return mp.exp(-s)


def fit(f, degree, high):
    """Coefficients c[0..degree] of sum c_j x^j ~ f(x) on [0, high], least squares relative to f."""
    nodes = [high * (1 - mp.cos(mp.pi * (k + HALF) / NODES)) / 2 for k in range(NODES)]
    rows = mp.matrix(NODES, degree + 1)
    for i, x in enumerate(nodes):
        fx = f(x)
        for j in range(degree + 1):
            rows[i, j] = x**j / fx  # relative: each row divided by the value it fits
    ones = mp.matrix([1] * NODES)
    coef = mp.lu_solve(rows.T * rows, rows.T * ones)
    return [to_float32(coef[j]) for j in range(degree + 1)]


def to_float32(x):
    return struct.unpack('f', struct.pack('f', float(x)))[0]


def poly(coef, x):
    return sum(c * x**j for j, c in enumerate(coef))


def worst_erfc_error(coef):
    worst = 0.0
    for k in range(1, 4000):
        a = 12.0 * k / 4000
        t = 1 / (1 + a / 2)
        exact = float(mp.erfc(a))
        worst = max(worst, abs(t * math.exp(-a * a) * poly(coef, t) - exact) / exact)
    return worst


def worst_near_error(f, coef):
    worst = 0.0
    for k in range(4001):
        s = float(NEAR) * k / 4000
        exact = float(f(mp.mpf(s)))
        worst = max(worst, abs(poly(coef, s) - exact) / exact)
    return worst


def show(name, coef, error):
    print('%s: %s' % (name, ', '.join('%.9gf' % c for c in coef)))
    print('   worst relative error: %.3g' % error)


q = fit(q_exact, 10, mp.mpf(1))
show('Q (erfc tail)', q, worst_erfc_error(q))
p = fit(erf_over_z, 4, NEAR)
show('P (erf near zero)', p, worst_near_error(erf_over_z, p))
e = fit(exp_minus, 5, NEAR)
show('E (exp near zero)', e, worst_near_error(exp_minus, e))
