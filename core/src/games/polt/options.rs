//! Polt to Tzar table options (RULES.md section 3): `bowers` and `joker`, the single preset
//! `default`, and reading them from a record's `rules` (a preset name or an object).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What the joker is in play. RULES.md knows one value; the option exists so that a record can
/// name it and a later variant can be added without changing the format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JokerRule {
    /// The joker is the highest trump and belongs to the trump suit.
    #[default]
    HighestTrump,
}

/// The options of one table. Field names are spelled as in RULES.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// With a suit trump, the jack of trumps and the other jack of its colour rank right below
    /// the joker and belong to trumps (seed 003 variation).
    #[serde(default)]
    pub bowers: bool,
    #[serde(default)]
    pub joker: JokerRule,
}

/// The preset names a record's `rules` may use.
pub const PRESETS: [&str; 1] = ["default"];

impl Options {
    /// The `default` preset: no bowers, the joker the highest trump.
    pub fn default_preset() -> Self {
        Options::default()
    }

    /// The options of a preset name.
    pub fn preset(name: &str) -> Option<Self> {
        match name {
            "default" => Some(Options::default_preset()),
            _ => None,
        }
    }

    /// Reads a record's `rules`: a preset name, or an object `{"preset": ..., option: value}`
    /// (the preset defaults to `default`). The error is a short sentence for a replay message.
    pub fn from_rules(rules: &Value) -> Result<Self, String> {
        match rules {
            Value::String(name) => {
                Options::preset(name).ok_or_else(|| format!("unknown polt rules preset {name:?}"))
            }
            Value::Object(map) => {
                let mut opts = match map.get("preset") {
                    None => Options::default_preset(),
                    Some(Value::String(name)) => {
                        Options::preset(name).ok_or_else(|| format!("unknown polt rules preset {name:?}"))?
                    }
                    Some(other) => return Err(format!("the rules preset {other} is not a name")),
                };
                for (key, value) in map {
                    match key.as_str() {
                        "preset" => {}
                        "bowers" => {
                            opts.bowers = value
                                .as_bool()
                                .ok_or_else(|| format!("option bowers must be true or false, not {value}"))?
                        }
                        "joker" => {
                            opts.joker = serde_json::from_value(value.clone())
                                .map_err(|_| format!("option joker must be \"highest_trump\", not {value}"))?
                        }
                        other => return Err(format!("unknown polt option {other:?}")),
                    }
                }
                Ok(opts)
            }
            other => Err(format!(
                "the rules must be a preset name or an object, not {other}"
            )),
        }
    }

    /// The `rules` value a record written with these options carries: the preset name when
    /// they are exactly a preset, else an object naming every option.
    pub fn to_rules(&self) -> Value {
        if *self == Options::default_preset() {
            return Value::String("default".into());
        }
        let mut v = serde_json::to_value(self).expect("options serialize");
        if let Value::Object(map) = &mut v {
            map.insert("preset".into(), Value::String("default".into()));
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn rules_from_presets_and_objects() {
        assert_eq!(Options::from_rules(&json!("default")), Ok(Options::default()));
        let o = Options::from_rules(&json!({"preset": "default", "bowers": true})).unwrap();
        assert!(o.bowers);
        let o = Options::from_rules(&json!({"bowers": false, "joker": "highest_trump"})).unwrap();
        assert_eq!(o, Options::default());
        assert!(Options::from_rules(&json!("lv")).is_err());
        assert!(Options::from_rules(&json!({"bowers": 1})).is_err());
        assert!(Options::from_rules(&json!({"joker": "lowest"})).is_err());
        assert!(Options::from_rules(&json!({"small_zole": true})).is_err());
        assert!(Options::from_rules(&json!(3)).is_err());
    }

    #[test]
    fn rules_round_trip() {
        for o in [
            Options::default(),
            Options {
                bowers: true,
                ..Options::default()
            },
        ] {
            assert_eq!(Options::from_rules(&o.to_rules()), Ok(o));
        }
        assert_eq!(Options::default().to_rules(), json!("default"));
    }
}
