//! The steppers' steps allocate nothing once their buffers exist (the LU keeps its
//! storage, the Jacobian provider its matrix and ∂f/∂t, Van der Pol fills them, radau5
//! copies a fresh J into the matrix it keeps, Newton's methods keep their workspace):
//! counted with a global allocator that
//! tallies this thread's allocations.

use odelab::method::create;
use odelab::stats::Stats;
use std::alloc::{GlobalAlloc, Layout, System as SystemAlloc};
use std::cell::Cell;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

fn count(size: usize) {
    ALLOCATIONS.with(|a| a.set(a.get() + 1));
    LARGEST.with(|l| l.set(l.get().max(size)));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        unsafe { SystemAlloc.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { SystemAlloc.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        unsafe { SystemAlloc.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

fn allocations() -> usize {
    ALLOCATIONS.with(|a| a.get())
}

/// Steps `id` on Van der Pol from (2, 0) with step size `h`: one step to create its
/// buffers, then 50 times a retried step from the same point (a rejection) and the step
/// taken. The allocations of those 100 steps, and the stats of all 101.
fn allocations_while_stepping(id: &str, h: f64) -> (usize, Stats) {
    let (_, model) = odelab::model::build("van-der-pol", &Default::default()).unwrap();
    let mut stepper = create(id, 2).unwrap();
    let mut stats = Stats::default();
    let mut t = 0.0;
    let mut y = [2.0, 0.0];
    let mut y_out = [0.0; 2];
    stepper
        .step(model.as_ref(), t, &y, h, &mut y_out, &mut stats)
        .unwrap();
    let before = allocations();
    for _ in 0..50 {
        stepper
            .step(model.as_ref(), t, &y, h / 2.0, &mut y_out, &mut stats)
            .unwrap();
        stepper
            .step(model.as_ref(), t, &y, h, &mut y_out, &mut stats)
            .unwrap();
        let fixed_step_only = [
            "rk4",
            "backward-euler",
            "bdf2",
            "generalized-alpha",
            "hht-alpha",
            "newmark",
        ]
        .contains(&id);
        assert!(
            stepper.error_estimate().is_some() || fixed_step_only,
            "{id}"
        );
        t += h;
        y = y_out;
    }
    (allocations() - before, stats)
}

#[test]
fn rosenbrock_steps_on_van_der_pol_allocate_nothing_after_the_first() {
    for id in ["ros4", "w2", "ros4-t2", "rn4", "rodas", "ode23s"] {
        let (allocated, stats) = allocations_while_stepping(id, 1e-3);
        assert_eq!(allocated, 0, "{id} allocated while stepping");
        assert_eq!(stats.nlu, 101, "{id}");
    }
}

#[test]
fn radau5_llm_and_explicit_steps_on_van_der_pol_allocate_nothing_after_the_first() {
    for id in ["radau5", "llm", "dp45", "bs23", "rk4"] {
        let (allocated, _) = allocations_while_stepping(id, 1e-4);
        assert_eq!(allocated, 0, "{id} allocated while stepping");
    }
}

#[test]
fn newton_steps_on_van_der_pol_allocate_nothing_after_the_first() {
    // backward-euler and bdf2: the LU of I − hβJ refactorised in its kept storage, the
    // Newton buffers kept (newton::Workspace). Backward Euler: one LU per step. BDF2 runs
    // on the fixed grid only, where a step retried from the same point is an event cut,
    // after which BDF2 starts afresh: every step here is a start-up (extrapolated
    // backward Euler, three LUs), and the start-up allocates nothing either.
    for (id, lus) in [("backward-euler", 101), ("bdf2", 303)] {
        let (allocated, stats) = allocations_while_stepping(id, 1e-3);
        assert_eq!(allocated, 0, "{id} allocated while stepping");
        assert_eq!(stats.nlu, lus, "{id}");
    }
}

#[test]
fn generalized_alpha_steps_on_van_der_pol_allocate_nothing_after_the_first() {
    // The n × n Newton matrix I − h²βw J_q − hγw J_v refactorised in its kept storage;
    // the carried accelerations of the step's start and end swap, never copied anew.
    for id in ["generalized-alpha", "hht-alpha", "newmark"] {
        let (allocated, stats) = allocations_while_stepping(id, 1e-3);
        assert_eq!(allocated, 0, "{id} allocated while stepping");
        assert_eq!(stats.nlu, 101, "{id}");
    }
}

#[test]
fn variable_order_bdf_steps_on_van_der_pol_allocate_nothing_after_the_first() {
    // bdf and ndf: the differences, the next step's differences and the Newton buffers
    // are kept; a changed h rescales the differences in place; the LU is refactorised
    // in its kept storage.
    for id in ["bdf", "ndf"] {
        let (allocated, _) = allocations_while_stepping(id, 1e-4);
        assert_eq!(allocated, 0, "{id} allocated while stepping");
    }
}

/// A typed 2,000-state heat equation under ros4 takes the sparse path from setup to the
/// last step: no allocation holds a dense n × n matrix (32 MB), not even the check that
/// the system has derivatives, which once built the whole Jacobian to throw it away.
#[test]
fn a_sparse_typed_system_never_allocates_a_dense_jacobian() {
    let n = 2000;
    let spec: odelab::spec::SolveSpec = serde_json::from_value(serde_json::json!({
        "system": format!(
            "param N = {n}\nu[i]' = (N+1)^2*(u[i-1] - 2*u[i] + u[i+1]) for i = 1..N\n\
             u[0] = 0\nu[N+1] = 0\nu[i](0) = sin(pi*i/(N+1)) for i = 1..N"
        ),
        "method": "ros4",
        "t1": 0.01,
        "rtol": 1e-6,
        "atol": 1e-8,
    }))
    .unwrap();
    LARGEST.with(|l| l.set(0));
    let sol = odelab::solve(&spec).unwrap();
    let largest = LARGEST.with(|l| l.get());
    assert!(sol.stats.nsteps > 1);
    let dense = n * n * std::mem::size_of::<f64>();
    assert!(
        largest < dense / 8,
        "largest allocation {largest} B; a dense Jacobian is {dense} B"
    );
}
