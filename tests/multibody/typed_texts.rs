//! Constrained mechanisms typed in the system language, shared by the tests.

/// A slider-crank in body coordinates (crank 1, connecting rod 2, slider 3), the crank
/// driven at constant speed w by a time-dependent constraint.
pub const SLIDER_CRANK: &str = "\
param r = 0.2, l = 0.6, w = 2*pi, m1 = 1, m2 = 2, m3 = 1.5, g = 9.81
param J1 = m1*r^2/12, J2 = m2*l^2/12, J3 = 0.01
coordinates x1, y1, φ1, x2, y2, φ2, x3, y3, φ3
mass m1, m1, J1, m2, m2, J2, m3, m3, J3
force y1 = -m1*g
force y2 = -m2*g
force y3 = -m3*g
constraint Ox: x1 - r/2*cos(φ1) = 0
constraint Oy: y1 - r/2*sin(φ1) = 0
constraint Ax: x1 + r/2*cos(φ1) = x2 - l/2*cos(φ2)
constraint Ay: y1 + r/2*sin(φ1) = y2 - l/2*sin(φ2)
constraint Bx: x2 + l/2*cos(φ2) = x3
constraint By: y2 + l/2*sin(φ2) = y3
constraint slide: y3 = 0
constraint level: φ3 = 0
constraint crank: φ1 = w*t
x1(0) = r/2, y1(0) = 0, φ1(0) = 0
x2(0) = r + l/2, y2(0) = 0, φ2(0) = 0
x3(0) = r + l, y3(0) = 0, φ3(0) = 0
output piston = x3
";

/// `double-pendulum-stiff` (Gil, Sanfelice & Nikravesh (LLM) §2, Fig. 1) retyped in the
/// language: the same links, hinges, gravity and stiff torsional spring.
pub const STIFF_PENDULUM: &str = "\
param m1 = 1, m2 = 1, L1 = 1, L2 = 1, J1 = 1/12, J2 = 1/12, k = 3000, c = 0, g = 9.81
K = k*180/pi                      # N·m/deg → N·m/rad
tau = K*(φ2 - φ1) + c*(φ2' - φ1')
coordinates x1, y1, φ1, x2, y2, φ2
mass m1, m1, J1, m2, m2, J2
force y1 = -m1*g
force y2 = -m2*g
force φ1 = tau
force φ2 = -tau
constraint hinge1x: x1 - L1/2*cos(φ1) = 0
constraint hinge1y: y1 - L1/2*sin(φ1) = 0
constraint hinge2x: x1 + L1/2*cos(φ1) = x2 - L2/2*cos(φ2)
constraint hinge2y: y1 + L1/2*sin(φ1) = y2 - L2/2*sin(φ2)
x1(0) = L1/2, y1(0) = 0, φ1(0) = 0
x2(0) = L1 + L2/2, y2(0) = 0, φ2(0) = 0
";

/// A Grashof crank-rocker four-bar (ground d = 1, crank a = 0.3, coupler b = 0.9,
/// rocker c = 0.7: s + l = 1.3 ≤ p + q = 1.6, the shortest link a crank), swinging
/// under gravity from an approximate pose that the start makes consistent.
pub const FOUR_BAR: &str = "\
param a = 0.3, b = 0.9, c = 0.7, d = 1, m = 1, g = 9.81
coordinates x1, y1, φ1, x2, y2, φ2, x3, y3, φ3
mass m*a, m*a, m*a^3/12, m*b, m*b, m*b^3/12, m*c, m*c, m*c^3/12
force y1 = -m*a*g
force y2 = -m*b*g
force y3 = -m*c*g
constraint O2x: x1 - a/2*cos(φ1) = 0
constraint O2y: y1 - a/2*sin(φ1) = 0
constraint Ax: x1 + a/2*cos(φ1) = x2 - b/2*cos(φ2)
constraint Ay: y1 + a/2*sin(φ1) = y2 - b/2*sin(φ2)
constraint Bx: x2 + b/2*cos(φ2) = x3 + c/2*cos(φ3)
constraint By: y2 + b/2*sin(φ2) = y3 + c/2*sin(φ3)
constraint O4x: x3 - c/2*cos(φ3) = d
constraint O4y: y3 - c/2*sin(φ3) = 0
x1(0) = 0, y1(0) = 0.15, φ1(0) = 1.5708
x2(0) = 0.41, y2(0) = 0.49, φ2(0) = 0.43
x3(0) = 0.91, y3(0) = 0.34, φ3(0) = 1.83
φ1'(0) = 6
output energy = 0.5*m*a*(x1'^2 + y1'^2) + 0.5*m*a^3/12*φ1'^2 + 0.5*m*b*(x2'^2 + y2'^2) + 0.5*m*b^3/12*φ2'^2 + 0.5*m*c*(x3'^2 + y3'^2) + 0.5*m*c^3/12*φ3'^2 + m*g*(a*y1 + b*y2 + c*y3)
";

/// An N-link pendulum chain written once for every link (an indexed family).
pub const CHAIN: &str = "\
param N = 5, L = 0.5, m = 1, g = 9.81
coordinates x[i], y[i], φ[i] for i = 1..N
mass m, m, m*L^2/12 for i = 1..N
force y[i] = -m*g for i = 1..N
constraint top_x: x[1] - L/2*cos(φ[1]) = 0
constraint top_y: y[1] - L/2*sin(φ[1]) = 0
constraint hinge_x[i]: x[i] - L/2*cos(φ[i]) = x[i-1] + L/2*cos(φ[i-1]) for i = 2..N
constraint hinge_y[i]: y[i] - L/2*sin(φ[i]) = y[i-1] + L/2*sin(φ[i-1]) for i = 2..N
x[i](0) = (i - 0.5)*L for i = 1..N
y[i](0) = 0 for i = 1..N
φ[i](0) = 0 for i = 1..N
output energy = sum(0.5*m*(x[i]'^2 + y[i]'^2) + m*L^2/24*φ[i]'^2 + m*g*y[i] for i = 1..N)
";

/// `double-pendulum-rsda` (Negrut et al. 2003 §3.1) retyped: body 1 hinged at the
/// origin at its (−L1, 0), body 2's (−L2, 0) at body 1's (L1, 0); a rotational
/// spring-damper from the ground to body 1 and one between the bodies; the printed
/// initial state θ = (2π, 23π/12), θ̇ = (0, 10) in body coordinates.
pub const RSDA_PENDULUM: &str = "\
param m1 = 3, m2 = 0.3, L1 = 1, L2 = 1.5, J1 = 1, J2 = 0.225, k1 = 400, k2 = 3e5
param c1 = 15, c2 = 5e4, alpha1 = 1.5*pi, alpha2 = 0, g = 9.81
param th1 = 2*pi, th2 = 23*pi/12, w1 = 0, w2 = 10
tau1 = k1*(φ1 - alpha1) + c1*φ1'
tau2 = k2*(φ2 - φ1 - alpha2) + c2*(φ2' - φ1')
coordinates x1, y1, φ1, x2, y2, φ2
mass m1, m1, J1, m2, m2, J2
force y1 = -m1*g
force y2 = -m2*g
force φ1 = -tau1
force φ2 = -tau2
force φ1 = tau2
constraint hinge1x: x1 - L1*cos(φ1) = 0
constraint hinge1y: y1 - L1*sin(φ1) = 0
constraint hinge2x: x1 + L1*cos(φ1) = x2 - L2*cos(φ2)
constraint hinge2y: y1 + L1*sin(φ1) = y2 - L2*sin(φ2)
x1(0) = L1*cos(th1), y1(0) = L1*sin(th1), φ1(0) = th1
x2(0) = 2*L1*cos(th1) + L2*cos(th2), y2(0) = 2*L1*sin(th1) + L2*sin(th2), φ2(0) = th2
x1'(0) = -L1*sin(th1)*w1, y1'(0) = L1*cos(th1)*w1, φ1'(0) = w1
x2'(0) = -2*L1*sin(th1)*w1 - L2*sin(th2)*w2, y2'(0) = 2*L1*cos(th1)*w1 + L2*cos(th2)*w2, φ2'(0) = w2
";

/// `pendulum-particle` (Gil, Sanfelice & Nikravesh 2013, Fig. 6) retyped: the bar
/// hinged at its (0, L/2) to the origin, the particle (a body whose angle no torque
/// turns, inertia m2) on a zero-rest-length spring k to the bar's tip (0, −L/2).
pub const PENDULUM_PARTICLE: &str = "\
param m1 = 100, J1 = 100, L = 1, m2 = 1e-5, k = 5, g = 9.81, theta0 = pi/4, h = L/2
dx = x2 - (x1 + h*sin(φ1))        # tip → particle
dy = y2 - (y1 - h*cos(φ1))
coordinates x1, y1, φ1, x2, y2, φ2
mass m1, m1, J1, m2, m2, m2
force y1 = -m1*g
force y2 = -m2*g
force x1 = k*dx
force y1 = k*dy
force φ1 = h*cos(φ1)*k*dx + h*sin(φ1)*k*dy
force x2 = -k*dx
force y2 = -k*dy
constraint hingex: x1 - h*sin(φ1) = 0
constraint hingey: y1 + h*cos(φ1) = 0
x1(0) = h*sin(theta0), y1(0) = -h*cos(theta0), φ1(0) = theta0
x2(0) = L*sin(theta0), y2(0) = -L*cos(theta0), φ2(0) = 0
";

/// `vehicle-stiff` (after Negrut et al. 2003 §3.2) retyped: the chassis c and the two
/// unsprung bodies f, r on translational joints along the chassis' vertical axis through
/// the axle points (a, Rw − H) and (−b, Rw − H); a zero-rest-length suspension
/// spring-damper from each axle point to its unsprung centre; a vertical tyre on the
/// road with the half-cylinder bump enveloped by the wheel, read at the wheel's x.
/// H is the settled height the built-in computes from the preloads; at rest in static
/// equilibrium, driving at v.
pub const VEHICLE: &str = "\
param m = 1030, J = 1700, a = 0.5*(0.7*4.4704), b = 0.5*(0.7*4.4704), mu = 7.7, ks = 2e7, cs = 2e6
param kt = 296325, ct = 3502, v = 4.4704, D = 0.1, Rw = 0.47, tHit = 0.5, g = 9.81, hs = 0.2576
param Ff = m*g*b/(a + b), Fr = m*g*a/(a + b)
param Hf = Rw - (Ff + mu*g)/kt + hs - Ff/ks, Hr = Rw - (Fr + mu*g)/kt + hs - Fr/ks
param H = (b*Hf + a*Hr)/(a + b)
param rho = Rw + 0.5*D, se = sqrt(rho*rho - Rw*Rw), xaxis = a + v*tHit + se
py = Rw - H
# the suspension: d = unsprung centre − axle point, F = ks d + cs d'
dxf = xf - (xc + cos(φc)*a - sin(φc)*py)
dyf = yf - (yc + sin(φc)*a + cos(φc)*py)
vxf = xf' - (xc' + (-sin(φc)*a - cos(φc)*py)*φc')
vyf = yf' - (yc' + (cos(φc)*a - sin(φc)*py)*φc')
Fxf = ks*dxf + cs*vxf
Fyf = ks*dyf + cs*vyf
dxr = xr - (xc + cos(φc)*(-b) - sin(φc)*py)
dyr = yr - (yc + sin(φc)*(-b) + cos(φc)*py)
vxr = xr' - (xc' + (-sin(φc)*(-b) - cos(φc)*py)*φc')
vyr = yr' - (yc' + (cos(φc)*(-b) - sin(φc)*py)*φc')
Fxr = ks*dxr + cs*vxr
Fyr = ks*dyr + cs*vyr
# the road under each wheel: w(x) and w'(x) of the bump
sf = xf - xaxis
sr = xr - xaxis
rootf = sqrt(rho*rho - min(sf*sf, se*se))
rootr = sqrt(rho*rho - min(sr*sr, se*se))
wf = if(abs(sf) < se, rootf - Rw, 0)
wr = if(abs(sr) < se, rootr - Rw, 0)
dwf = if(abs(sf) < se, -sf/rootf, 0)
dwr = if(abs(sr) < se, -sr/rootr, 0)
coordinates xc, yc, φc, xf, yf, φf, xr, yr, φr
mass m, m, J - 2*(1e-3*J), mu, mu, 1e-3*J, mu, mu, 1e-3*J
force xc = Fxf
force yc = Fyf
force φc = (-sin(φc)*a - cos(φc)*py)*Fxf + (cos(φc)*a - sin(φc)*py)*Fyf
force xf = -Fxf
force yf = -Fyf
force yf = -(kt*(yf - Rw - wf) + ct*(yf' - dwf*xf'))
force xc = Fxr
force yc = Fyr
force φc = (-sin(φc)*(-b) - cos(φc)*py)*Fxr + (cos(φc)*(-b) - sin(φc)*py)*Fyr
force xr = -Fxr
force yr = -Fyr
force yr = -(kt*(yr - Rw - wr) + ct*(yr' - dwr*xr'))
constraint Pf_n: a - (cos(φc)*(xf - xc) + sin(φc)*(yf - yc)) = 0
constraint Pf_φ: φf - φc = 0
constraint Pr_n: -b - (cos(φc)*(xr - xc) + sin(φc)*(yr - yc)) = 0
constraint Pr_φ: φr - φc = 0
xc(0) = 0, yc(0) = H, φc(0) = 0
xf(0) = a, yf(0) = Rw, φf(0) = 0
xr(0) = -b, yr(0) = Rw, φr(0) = 0
xc'(0) = v, xf'(0) = v, xr'(0) = v
";
