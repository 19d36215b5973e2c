//! Skill ratings: Weng-Lin (the Bayesian rating behind OpenSkill, from the `skillratings`
//! crate), which rates free-for-all games of any number of players and games of teams alike:
//! a Zole deal or session of 3 to 5, a Polt session of 5 to 7, Belote's two teams of two, a
//! tournament table's round. Pure: the host stores the ratings and calls `rate` after each
//! finished game.

use serde::{Deserialize, Serialize};
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

/// A player's rating: the estimate `mu` and its uncertainty `sigma` (25 and 25/3 at first).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub mu: f64,
    pub sigma: f64,
}

impl Default for Rating {
    fn default() -> Self {
        let r = WengLinRating::new();
        Rating {
            mu: r.rating,
            sigma: r.uncertainty,
        }
    }
}

impl Rating {
    /// The number boards show and rank by: the estimate less three uncertainties, scaled so
    /// that a new player shows 1000 and climbs as the bot learns what they are worth.
    pub fn shown(&self) -> i64 {
        let start = Rating::default();
        let conservative = self.mu - 3.0 * self.sigma;
        let start_conservative = start.mu - 3.0 * start.sigma;
        (1000.0 + 40.0 * (conservative - start_conservative)).round() as i64
    }
}

impl From<Rating> for WengLinRating {
    fn from(r: Rating) -> Self {
        WengLinRating {
            rating: r.mu,
            uncertainty: r.sigma,
        }
    }
}

impl From<WengLinRating> for Rating {
    fn from(r: WengLinRating) -> Self {
        Rating {
            mu: r.rating,
            sigma: r.uncertainty,
        }
    }
}

/// One side of a finished game: its players' ratings and its score (higher is better; game
/// points, a team's points, tricks). Sides with equal scores share their place.
#[derive(Clone, Debug, PartialEq)]
pub struct Side {
    pub ratings: Vec<Rating>,
    pub score: i64,
}

/// The new ratings of every side's players, in the same order. A Zole or Polt game is one
/// side per player; Belote is two sides of two.
pub fn rate(sides: &[Side]) -> Vec<Vec<Rating>> {
    let mut scores: Vec<i64> = sides.iter().map(|s| s.score).collect();
    scores.sort_unstable_by(|a, b| b.cmp(a));
    scores.dedup();
    let teams: Vec<Vec<WengLinRating>> = sides
        .iter()
        .map(|s| s.ratings.iter().map(|&r| r.into()).collect())
        .collect();
    let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = sides
        .iter()
        .zip(&teams)
        .map(|(s, t)| {
            let place = scores.iter().position(|&x| x == s.score).unwrap_or(0);
            (t.as_slice(), MultiTeamOutcome::new(place + 1))
        })
        .collect();
    weng_lin_multi_team(&ranked, &WengLinConfig::new())
        .into_iter()
        .map(|t| t.into_iter().map(Rating::from).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solo(r: Rating, score: i64) -> Side {
        Side {
            ratings: vec![r],
            score,
        }
    }

    #[test]
    fn a_new_player_shows_1000_and_the_winner_climbs() {
        let r = Rating::default();
        assert_eq!(r.shown(), 1000);
        let out = rate(&[solo(r, 12), solo(r, -6), solo(r, -6)]);
        assert!(out[0][0].mu > r.mu, "{out:?}");
        assert!(out[1][0].mu < r.mu && out[2][0].mu < r.mu, "{out:?}");
        // The two losers shared their place: the same new rating.
        assert_eq!(out[1][0], out[2][0]);
        assert!(
            out.iter().all(|t| t[0].sigma < r.sigma),
            "every game teaches something"
        );
    }

    #[test]
    fn teams_move_together() {
        let r = Rating::default();
        let out = rate(&[
            Side {
                ratings: vec![r, r],
                score: 162,
            },
            Side {
                ratings: vec![r, r],
                score: 0,
            },
        ]);
        assert_eq!(out[0][0], out[0][1]);
        assert!(out[0][0].mu > r.mu && out[1][0].mu < r.mu);
    }

    #[test]
    fn beating_a_stronger_player_moves_more_than_beating_a_weaker_one() {
        let weak = Rating { mu: 20.0, sigma: 4.0 };
        let strong = Rating { mu: 30.0, sigma: 4.0 };
        let me = Rating { mu: 25.0, sigma: 4.0 };
        let upset = rate(&[solo(me, 1), solo(strong, 0)])[0][0].mu - me.mu;
        let expected = rate(&[solo(me, 1), solo(weak, 0)])[0][0].mu - me.mu;
        assert!(upset > expected, "{upset} vs {expected}");
    }
}
