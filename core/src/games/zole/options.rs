//! Zole rules options (RULES.md 1.5-1.9) and the five presets. A table's rules are a preset
//! plus any overridden options; a record writes them as a preset name or as
//! `{"preset": "lv", "small_zole": true, ...}`.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// What happens when everybody passes (RULES.md 1.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AllPass {
    Pule,
    Galdins,
    Rondo,
    Tree,
}

/// Whether and how a declarer may give up (RULES.md 1.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Surrender {
    Off,
    BasicLoss,
    ConcedeRest,
}

/// Where the talon's points go in galdiņš and rondo.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GaldinsTalon {
    Nobody,
    FirstTrick,
}

/// What the scoring bands are keyed on: tricks (Latvian practice) or card points (zolite).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bands {
    Tricks,
    Points,
}

/// Every option of RULES.md section 1, with the `lv` defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    pub all_pass: AllPass,
    pub small_zole: bool,
    /// Units a lost small zole costs per opponent (7 or 6).
    pub small_zole_loss: u8,
    pub zole_overcalls_small_zole: bool,
    pub surrender: Surrender,
    pub galdins_talon: GaldinsTalon,
    pub pules_on_zole: bool,
    /// What the owner of a personal pule pays the player who removes it (3 or 2).
    pub personal_pule_payment: u8,
    pub settle_pules_at_end: bool,
    /// Zole units per opponent: win 61-90, win 91+, win with every trick, lose 31-60, lose 30
    /// or fewer, lose with no trick (the losses negative).
    pub zole_units: [i8; 6],
    pub bands: Bands,
    /// Zolite: a 60-60 result is a tie (nobody scores, a tree branch is added).
    pub tie_at_60: bool,
}

/// The take (lielais) units: 1/2/3 and -2/-3/-4 in every preset.
pub const TAKE_UNITS: [i8; 6] = [1, 2, 3, -2, -3, -4];

pub const PRESETS: [&str; 5] = ["lv", "lv-galdins", "rondo", "catsatcards", "zolite"];

impl Default for Options {
    fn default() -> Self {
        Options::lv()
    }
}

impl Options {
    /// `lv`: seed 002 classic rules and Latvian practice.
    pub const fn lv() -> Options {
        Options {
            all_pass: AllPass::Pule,
            small_zole: false,
            small_zole_loss: 7,
            zole_overcalls_small_zole: false,
            surrender: Surrender::Off,
            galdins_talon: GaldinsTalon::Nobody,
            pules_on_zole: false,
            personal_pule_payment: 3,
            settle_pules_at_end: true,
            zole_units: [5, 6, 7, -6, -7, -8],
            bands: Bands::Tricks,
            tie_at_60: false,
        }
    }

    /// `lv-galdins`: Latvian online and home play.
    pub const fn lv_galdins() -> Options {
        Options {
            all_pass: AllPass::Galdins,
            small_zole: true,
            ..Options::lv()
        }
    }

    /// `rondo`: seed 002's Rondo section.
    pub const fn rondo() -> Options {
        Options {
            all_pass: AllPass::Rondo,
            small_zole: true,
            small_zole_loss: 6,
            zole_overcalls_small_zole: true,
            ..Options::lv()
        }
    }

    /// `catsatcards`: seed 001.
    pub const fn catsatcards() -> Options {
        Options {
            all_pass: AllPass::Galdins,
            small_zole: true,
            small_zole_loss: 7,
            surrender: Surrender::BasicLoss,
            zole_units: [4, 5, 6, -5, -6, -7],
            ..Options::lv()
        }
    }

    /// `zolite`: seed 000.
    pub const fn zolite() -> Options {
        Options {
            all_pass: AllPass::Tree,
            zole_units: [4, 5, 6, -5, -6, -7],
            bands: Bands::Points,
            tie_at_60: true,
            ..Options::lv()
        }
    }

    pub fn preset(name: &str) -> Option<Options> {
        Some(match name {
            "lv" => Options::lv(),
            "lv-galdins" => Options::lv_galdins(),
            "rondo" => Options::rondo(),
            "catsatcards" => Options::catsatcards(),
            "zolite" => Options::zolite(),
            _ => return None,
        })
    }

    /// Reads a record's `rules`: a preset name, or an object with an optional `preset` (default
    /// `lv`) and any options to override.
    pub fn from_rules(rules: &Value) -> Result<Options, String> {
        match rules {
            Value::String(name) => {
                Options::preset(name).ok_or_else(|| format!("unknown zole preset {name:?}"))
            }
            Value::Object(obj) => {
                let base = match obj.get("preset") {
                    None => Options::lv(),
                    Some(Value::String(name)) => {
                        Options::preset(name).ok_or_else(|| format!("unknown zole preset {name:?}"))?
                    }
                    Some(_) => return Err("rules: \"preset\" must be a preset name".into()),
                };
                let mut merged = match serde_json::to_value(base) {
                    Ok(Value::Object(m)) => m,
                    _ => Map::new(),
                };
                for (k, v) in obj {
                    if k == "preset" {
                        continue;
                    }
                    if !merged.contains_key(k) {
                        return Err(format!("unknown zole option {k:?}"));
                    }
                    merged.insert(k.clone(), v.clone());
                }
                let o: Options = serde_json::from_value(Value::Object(merged))
                    .map_err(|e| format!("bad zole rules: {e}"))?;
                o.validate()?;
                Ok(o)
            }
            _ => Err("rules must be a preset name or an object".into()),
        }
    }

    /// Writes these options the way a record does: the preset name when they equal a preset,
    /// else `{"preset": <closest>, <differing options>}` against `lv`.
    pub fn to_rules(&self) -> Value {
        for name in PRESETS {
            if Options::preset(name) == Some(*self) {
                return Value::String(name.into());
            }
        }
        let base = serde_json::to_value(Options::lv()).unwrap_or(Value::Null);
        let mine = serde_json::to_value(self).unwrap_or(Value::Null);
        let mut out = Map::new();
        out.insert("preset".into(), Value::String("lv".into()));
        if let (Value::Object(b), Value::Object(m)) = (base, mine) {
            for (k, v) in m {
                if b.get(&k) != Some(&v) {
                    out.insert(k, v);
                }
            }
        }
        Value::Object(out)
    }

    fn validate(&self) -> Result<(), String> {
        if !(6..=7).contains(&self.small_zole_loss) {
            return Err("small_zole_loss must be 6 or 7".into());
        }
        if !(2..=3).contains(&self.personal_pule_payment) {
            return Err("personal_pule_payment must be 2 or 3".into());
        }
        let u = self.zole_units;
        if u[..3].iter().any(|&x| x <= 0) || u[3..].iter().any(|&x| x >= 0) {
            return Err("zole_units: three wins above zero, then three losses below zero".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn presets_match_the_table_of_rules_1_9() {
        let lv = Options::preset("lv").unwrap();
        assert_eq!(
            (lv.all_pass, lv.small_zole, lv.surrender),
            (AllPass::Pule, false, Surrender::Off)
        );
        assert_eq!(lv.zole_units, [5, 6, 7, -6, -7, -8]);
        let g = Options::preset("lv-galdins").unwrap();
        assert_eq!((g.all_pass, g.small_zole), (AllPass::Galdins, true));
        let r = Options::preset("rondo").unwrap();
        assert_eq!(
            (r.all_pass, r.small_zole_loss, r.zole_overcalls_small_zole),
            (AllPass::Rondo, 6, true)
        );
        let c = Options::preset("catsatcards").unwrap();
        assert_eq!(
            (c.all_pass, c.small_zole_loss, c.surrender),
            (AllPass::Galdins, 7, Surrender::BasicLoss)
        );
        assert_eq!(c.zole_units, [4, 5, 6, -5, -6, -7]);
        let z = Options::preset("zolite").unwrap();
        assert_eq!(
            (z.all_pass, z.small_zole, z.bands, z.tie_at_60),
            (AllPass::Tree, false, Bands::Points, true)
        );
        assert_eq!(z.zole_units, [4, 5, 6, -5, -6, -7]);
        assert!(Options::preset("xx").is_none());
    }

    #[test]
    fn rules_objects_override_a_preset() {
        let o =
            Options::from_rules(&json!({"preset": "lv", "small_zole": true, "surrender": "concede_rest"}))
                .unwrap();
        assert!(o.small_zole);
        assert_eq!(o.surrender, Surrender::ConcedeRest);
        assert_eq!(o.all_pass, AllPass::Pule);
        assert_eq!(Options::from_rules(&json!("zolite")).unwrap(), Options::zolite());
        assert_eq!(
            Options::from_rules(&json!({"all_pass": "tree"}))
                .unwrap()
                .all_pass,
            AllPass::Tree
        );
        assert!(Options::from_rules(&json!({"smal_zole": true}))
            .unwrap_err()
            .contains("smal_zole"));
        assert!(Options::from_rules(&json!({"small_zole_loss": 9})).is_err());
        assert!(Options::from_rules(&json!({"all_pass": "nothing"})).is_err());
        assert!(Options::from_rules(&json!(5)).is_err());
    }

    #[test]
    fn to_rules_round_trips() {
        for name in PRESETS {
            let o = Options::preset(name).unwrap();
            assert_eq!(o.to_rules(), json!(name));
        }
        let o = Options {
            personal_pule_payment: 2,
            ..Options::rondo()
        };
        assert_eq!(Options::from_rules(&o.to_rules()).unwrap(), o);
    }
}
