//! The method registry: one line per method, read alike by the driver, the catalogue
//! and the stability lab.

use odelab::method::{self, MethodEntry, MethodOptions, CATALOG, REGISTRY};
use odelab::OdeError;

#[test]
fn the_catalogue_is_the_registry_in_its_order_and_every_id_is_unique() {
    let ids: Vec<&str> = REGISTRY.iter().map(|e| e.info.id).collect();
    let listed: Vec<&str> = CATALOG.iter().map(|m| m.id).collect();
    assert_eq!(ids, listed);
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "{ids:?}");
    for id in &ids {
        assert_eq!(method::info(id).unwrap().id, *id);
    }
}

#[test]
fn every_line_builds_a_stepper_that_names_its_method() {
    for entry in REGISTRY {
        let options = MethodOptions {
            fast: if entry.info.partitioned {
                vec![1]
            } else {
                vec![]
            },
            ..Default::default()
        };
        let stepper = method::create_with(entry.info.id, 2, &options)
            .unwrap_or_else(|e| panic!("{}: {e}", entry.info.id));
        assert_eq!(stepper.info().id, entry.info.id);
    }
}

#[test]
fn an_unknown_id_lists_the_registered_ones() {
    match method::create("rk5", 2) {
        Err(OdeError::UnknownMethod { id, known }) => {
            assert_eq!(id, "rk5");
            assert!(known.iter().any(|k| k == "verlet"), "{known:?}");
        }
        other => panic!("{:?}", other.err()),
    }
}

/// A line whose builder the build leaves out (what `MethodEntry::full` does without
/// the `full` feature) still knows the method and refuses it with NotInThisBuild, the
/// error the page routes to the whole engine.
#[test]
fn a_line_without_its_builder_is_not_in_this_build() {
    let entry = MethodEntry {
        build: None,
        ..*method::entry("backward-euler").unwrap()
    };
    let err = entry.build(2, &MethodOptions::default()).err().unwrap();
    assert!(matches!(err, OdeError::NotInThisBuild { .. }), "{err}");
    assert!(err.to_string().contains("Backward Euler"), "{err}");
}

/// Every registered method with a ξ-plane is in the stability lab's list, and only
/// those (plus "custom").
#[test]
fn the_stability_lab_lists_the_registered_methods() {
    let ids = odelab::stability::amplification::ids();
    for entry in REGISTRY {
        assert!(ids.contains(&entry.info.id), "{}", entry.info.id);
    }
    assert_eq!(ids.len(), REGISTRY.len() + 1);
    assert_eq!(ids.last(), Some(&"custom"));
}

/// am-pece's characteristic polynomial, written as exact fractions in its file, is the
/// AB3 predictor and AM4 corrector weights the step uses, multiplied out.
#[test]
fn the_pece_polynomial_is_the_product_of_its_weights() {
    use odelab::method::adams::{AB3, AM4};
    let coef = odelab::method::am_pece::CHAR_POLY.coef;
    let want: [[f64; 3]; 4] = [
        [0.0, -AM4[3], -AM4[0] * AB3[2]],
        [0.0, -AM4[2], -AM4[0] * AB3[1]],
        [-1.0, -(AM4[0] + AM4[1]), -AM4[0] * AB3[0]],
        [1.0, 0.0, 0.0],
    ];
    for (row, w) in coef.iter().zip(want) {
        for (a, b) in row.iter().zip(w) {
            assert!((a - b).abs() < 1e-15, "{coef:?} against {want:?}");
        }
    }
}
