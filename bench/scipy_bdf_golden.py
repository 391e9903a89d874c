"""The golden values of tests/method/bdf.rs: SciPy BDF (analytic or sparse Jacobian) on
Van der Pol mu = 1000, Robertson and the N = 200 heat equation at two tolerances each,
digits at t1 against Radau at rtol 1e-12 (the heat equation: its semi-discrete exact
solution) and f-evaluations. Printed as JSON; run once by hand, not by any test.

Usage: python bench/scipy_bdf_golden.py
"""
import numpy as np, scipy, math, json
from scipy.integrate import solve_ivp
import scipy.sparse as sp
out={"scipy":scipy.__version__}
MU=1000.0
def vdp(t,y): return [y[1], MU*(1-y[0]**2)*y[1]-y[0]]
def vdpj(t,y): return np.array([[0,1],[-2*MU*y[0]*y[1]-1, MU*(1-y[0]**2)]])
k1,k2,k3=0.04,3e7,1e4
def rob(t,y):
    a=k1*y[0]; b=k3*y[1]*y[2]; c=k2*y[1]*y[1]
    return [-a+b, a-b-c, c]
def robj(t,y):
    return np.array([[-k1, k3*y[2], k3*y[1]],[k1,-k3*y[2]-2*k2*y[1], -k3*y[1]],[0,2*k2*y[1],0]])
N=200; m=N+1
A=sp.diags([np.ones(N-1),-2*np.ones(N),np.ones(N-1)],[-1,0,1],format='csc')*m*m
def heat(t,u): return A@u
def heatj(t,u): return A
u0=np.sin(np.pi*np.arange(1,N+1)/m)
lam=-4*m*m*math.sin(math.pi/(2*m))**2
def digits(y,ref): return -math.log10(np.max(np.abs(np.array(y)-ref))/np.max(np.abs(ref)))
probs={
 "vdp":(vdp,vdpj,(0,3000.0),[2.0,0.0]),
 "robertson":(rob,robj,(0,40.0),[1.0,0,0]),
 "heat":(heat,heatj,(0,0.05),u0),
}
refs={}
refs["vdp"]=solve_ivp(vdp,(0,3000.0),[2.0,0.0],method="Radau",rtol=1e-12,atol=1e-14,jac=vdpj).y[:,-1]
refs["robertson"]=solve_ivp(rob,(0,40.0),[1.0,0,0],method="Radau",rtol=1e-12,atol=1e-16,jac=robj).y[:,-1]
refs["heat"]=u0*math.exp(lam*0.05)
out["ref"]={k:[float(x) for x in v] for k,v in refs.items() if k!="heat"}
cases=[("vdp",1e-4,1e-6),("vdp",1e-6,1e-8),("robertson",1e-4,1e-8),("robertson",1e-6,1e-10),("heat",1e-6,1e-8),("heat",1e-8,1e-10)]
res=[]
for name,rtol,atol in cases:
    f,j,ts,y0=probs[name]
    s=solve_ivp(f,ts,y0,method="BDF",rtol=rtol,atol=atol,jac=j)
    res.append(dict(problem=name,rtol=rtol,atol=atol,digits=digits(s.y[:,-1],refs[name]),nfev=int(s.nfev),njev=int(s.njev),nlu=int(s.nlu),nsteps=int(s.t.size-1),status=s.status))
out["cases"]=res
print(json.dumps(out,indent=1))
