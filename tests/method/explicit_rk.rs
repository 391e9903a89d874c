//! Properties every explicit tableau in the catalogue must have.

use odelab::method::{self, CATALOG};

#[test]
fn every_catalogue_method_can_be_created() {
    for info in CATALOG {
        let stepper = method::create(info.id, 3).expect("catalogue id creates");
        assert_eq!(stepper.info().id, info.id);
    }
}

#[test]
fn unknown_method_lists_the_known_ones() {
    let err = method::create("rk5", 2)
        .err()
        .expect("unknown id is refused");
    let msg = err.to_string();
    assert!(msg.contains("\"rk5\""), "{msg}");
    assert!(
        msg.contains("\"rk4\"") && msg.contains("\"euler\""),
        "{msg}"
    );
}
