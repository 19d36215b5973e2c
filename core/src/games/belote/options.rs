//! Belote table options (RULES.md section 2): a plain struct, one preset (`default`) per
//! variant, read from a record's `rules` (`"default"` or `{"preset": "default", option: value}`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Variant;

/// How a score is turned into tens (Bazar and head-to-head): `half_down` rounds 85 to 8 and
/// 86 to 9 (seed 004, the default); `half_up` rounds 85 to 9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Rounding {
    #[default]
    HalfDown,
    HalfUp,
}

impl Rounding {
    /// Points to tens.
    pub const fn tens(self, points: u32) -> u32 {
        match self {
            Rounding::HalfDown => (points + 4) / 10,
            Rounding::HalfUp => (points + 5) / 10,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Void in a plain suit led, unable to overtrump, partner not winning: must still trump.
    pub must_undertrump: bool,
    /// The game ends after the deal in which a side reaches this (in the sheet's units).
    pub target: i32,
    pub bazar_rounding: Rounding,
}

impl Options {
    /// The `default` preset of a variant (targets 301 / 501 / 101 / 501).
    pub const fn default_for(v: Variant) -> Options {
        Options {
            must_undertrump: false,
            target: v.default_target(),
            bazar_rounding: Rounding::HalfDown,
        }
    }

    /// Reads a record's `rules`.
    pub fn from_rules(v: Variant, rules: &Value) -> Result<Options, String> {
        let preset = |name: &str| match name {
            "default" => Ok(Options::default_for(v)),
            other => Err(format!("unknown preset {other:?}")),
        };
        match rules {
            Value::String(name) => preset(name),
            Value::Object(map) => {
                let mut o = match map.get("preset") {
                    None => Options::default_for(v),
                    Some(Value::String(name)) => preset(name)?,
                    Some(_) => return Err("the preset must be a name".into()),
                };
                for (k, val) in map {
                    let bad = || format!("bad value for option {k}: {val}");
                    match k.as_str() {
                        "preset" => {}
                        "must_undertrump" => o.must_undertrump = val.as_bool().ok_or_else(bad)?,
                        "target" => {
                            o.target = val
                                .as_i64()
                                .filter(|t| (1..=100_000).contains(t))
                                .ok_or_else(bad)? as i32
                        }
                        "bazar_rounding" => {
                            o.bazar_rounding = serde_json::from_value(val.clone()).map_err(|_| bad())?
                        }
                        other => return Err(format!("unknown option {other:?}")),
                    }
                }
                Ok(o)
            }
            _ => Err("rules must be a preset name or an object".into()),
        }
    }

    /// The `rules` to write into a record: the preset name when nothing differs from it.
    pub fn to_rules(&self, v: Variant) -> Value {
        if *self == Options::default_for(v) {
            Value::String("default".into())
        } else {
            let mut m = serde_json::to_value(self).expect("plain struct");
            m.as_object_mut()
                .expect("struct")
                .insert("preset".into(), "default".into());
            m
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn rounding_five_down_six_up() {
        assert_eq!(Rounding::HalfDown.tens(85), 8);
        assert_eq!(Rounding::HalfDown.tens(86), 9);
        assert_eq!(Rounding::HalfDown.tens(84), 8);
        assert_eq!(Rounding::HalfUp.tens(85), 9);
        assert_eq!(Rounding::HalfUp.tens(84), 8);
    }

    #[test]
    fn rules_round_trip() {
        for v in Variant::ALL {
            let d = Options::from_rules(v, &json!("default")).unwrap();
            assert_eq!(d.target, v.default_target());
            let o = Options::from_rules(
                v,
                &json!({"preset": "default", "must_undertrump": true, "bazar_rounding": "half_up", "target": 1001}),
            )
            .unwrap();
            assert!(o.must_undertrump);
            assert_eq!(o.target, 1001);
            assert_eq!(Options::from_rules(v, &o.to_rules(v)).unwrap(), o);
            assert_eq!(d.to_rules(v), json!("default"));
        }
        assert!(Options::from_rules(Variant::Bazar, &json!("lv")).is_err());
        assert!(Options::from_rules(Variant::Bazar, &json!({"small_zole": true})).is_err());
        assert!(Options::from_rules(Variant::Bazar, &json!({"target": "x"})).is_err());
    }
}
