//! The community part: the community's boards (`/top`: ratings, or points over a day, week,
//! month, season or all time), a player's statistics and ratings (`/stats`), seasons, the
//! community's pages (`/web`), and rating a finished table. Its state is in the database;
//! what it reads besides is the host's set-up. It asks nothing of the `Host`.

use stikis_core::rating::{rate, Rating, Side};

use crate::config::HostConfig;
use crate::games::{game_title, in_teams, GAMES};
use crate::i18n::{t, Arg, Lang};
use crate::langs::community_lang;
use crate::outbox::{Board, Outbox, Request};
use crate::store::{CommunityRef, Occupant, Period, RatingRow, Store};
use crate::table::{HostError, Live};

/// How many lines a board shows.
const BOARD_LINES: u32 = 10;
/// The longest name a community is listed under on the site's front page (characters).
const PUBLIC_NAME_MAX: usize = 60;

/// The community part (see the module's text).
pub(crate) struct Community {
    store: Store,
    config: HostConfig,
}

impl Community {
    pub(crate) fn new(store: Store, config: HostConfig) -> Community {
        Community { store, config }
    }

    /// `/top`: every game the community has played, each its own board.
    pub(crate) async fn leaderboard(
        &self,
        req: &Request,
        board: Board,
        lang: Lang,
    ) -> Result<Outbox, HostError> {
        let c = req.chat.community_ref();
        let mut out = Outbox::default();
        let mut boards = Vec::new();
        match board {
            Board::Rating => {
                for game in GAMES {
                    let rows = self.store.ratings(&c, game, BOARD_LINES).await?;
                    if rows.is_empty() {
                        continue;
                    }
                    let mut lines = vec![t(
                        lang,
                        "top-rating-title",
                        &[("game", game_title(lang, game).into())],
                    )];
                    lines.extend(rows.iter().enumerate().map(|(i, r)| {
                        t(
                            lang,
                            "top-rating-line",
                            &[
                                ("rank", Arg::from(i + 1)),
                                ("name", r.name.clone().into()),
                                ("rating", Arg::from(r.rating.shown())),
                                ("games", Arg::from(r.games)),
                            ],
                        )
                    }));
                    boards.push(lines.join("\n"));
                }
                if !boards.is_empty() {
                    boards.push(t(lang, "top-hint", &[]));
                }
            }
            Board::Points(period) => {
                let Some((from, to, n)) = self.store.period_span(&c, period).await? else {
                    let n = match period {
                        Period::Season(Some(n)) => n,
                        _ => 0,
                    };
                    out.reply(t(lang, "top-no-season", &[("n", Arg::from(i64::from(n)))]));
                    return Ok(out);
                };
                let title = match period {
                    Period::Season(_) => "top-period-season",
                    Period::Day => "top-period-day",
                    Period::Week => "top-period-week",
                    Period::Month => "top-period-month",
                    Period::All => "top-period-all",
                };
                for game in GAMES {
                    let rows = self.store.period_board(&c, game, from, to, BOARD_LINES).await?;
                    if rows.is_empty() {
                        continue;
                    }
                    let mut lines = vec![t(
                        lang,
                        title,
                        &[
                            ("game", game_title(lang, game).into()),
                            ("n", Arg::from(i64::from(n))),
                        ],
                    )];
                    lines.extend(rows.iter().enumerate().map(|(i, r)| {
                        t(
                            lang,
                            "top-line",
                            &[
                                ("rank", Arg::from(i + 1)),
                                ("name", r.name.clone().into()),
                                ("points", Arg::from(r.points)),
                                ("deals", Arg::from(r.deals)),
                            ],
                        )
                    }));
                    boards.push(lines.join("\n"));
                }
                if boards.is_empty() {
                    out.reply(t(lang, "top-none-period", &[]));
                    return Ok(out);
                }
            }
        }
        let mut text = if boards.is_empty() {
            t(lang, "top-none", &[])
        } else {
            boards.join("\n\n")
        };
        if let Some(link) = self.boards_link(&c, lang).await {
            text = format!("{text}\n\n{link}");
        }
        out.reply(text);
        Ok(out)
    }

    /// `/stats`: the asker's counts per game, and their ratings with the last change.
    pub(crate) async fn stats(&self, req: &Request, lang: Lang) -> Result<Outbox, HostError> {
        let c = req.chat.community_ref();
        let mut lines = Vec::new();
        for game in GAMES {
            let Some(r) = self.store.user_stats(&c, game, &req.user.id).await? else {
                continue;
            };
            let s = &r.stats;
            let mut line = t(
                lang,
                "stats-line",
                &[
                    ("game", game_title(lang, game).into()),
                    ("points", Arg::from(s.points)),
                    ("games", Arg::from(s.games)),
                    ("deals", Arg::from(s.deals)),
                    ("wins", Arg::from(s.declarer_wins)),
                ],
            );
            if s.pules_written + s.pules_removed > 0 {
                line.push_str(&t(
                    lang,
                    "stats-pules",
                    &[
                        ("written", Arg::from(s.pules_written)),
                        ("removed", Arg::from(s.pules_removed)),
                    ],
                ));
            }
            lines.push(line);
        }
        for game in GAMES {
            for r in self
                .store
                .ratings_of(&c, game, std::slice::from_ref(&req.user.id))
                .await?
            {
                lines.push(t(
                    lang,
                    "stats-rating",
                    &[
                        ("game", game_title(lang, game).into()),
                        ("rating", Arg::from(r.rating.shown())),
                        ("change", format!("{:+}", r.change).into()),
                    ],
                ));
            }
        }
        let mut out = Outbox::default();
        let mut text = if lines.is_empty() {
            t(lang, "stats-none", &[("name", req.user.name.clone().into())])
        } else {
            format!("{}\n{}", req.user.name, lines.join("\n"))
        };
        if let Some(link) = self.boards_link(&c, lang).await {
            text = format!("{text}\n\n{link}");
        }
        out.reply(text);
        Ok(out)
    }

    /// An admin starts the next season.
    pub(crate) async fn new_season(&self, req: &Request, lang: Lang) -> Result<Outbox, HostError> {
        let mut out = Outbox::default();
        if !req.user.admin {
            out.reply(t(lang, "table-not-allowed", &[]));
            return Ok(out);
        }
        let n = self.store.start_season(&req.chat.community_ref()).await?;
        out.push(crate::outbox::Out::Post {
            chat: req.chat.clone(),
            text: t(
                community_lang(&self.store, &req.chat).await,
                "season-started",
                &[
                    ("name", req.user.name.clone().into()),
                    ("n", Arg::from(i64::from(n))),
                    ("prev", Arg::from(i64::from(n - 1))),
                ],
            ),
            once: None,
        });
        out.reply("✓");
        Ok(out)
    }

    /// `/web`: the community's pages, or with `rotate` (admins) a new link, told to the chat.
    pub(crate) async fn web_link(
        &self,
        req: &Request,
        rotate: bool,
        lang: Lang,
    ) -> Result<Outbox, HostError> {
        let mut out = Outbox::default();
        let Some(base) = &self.config.web_url else {
            out.reply(t(lang, "web-off", &[]));
            return Ok(out);
        };
        let c = req.chat.community_ref();
        if !rotate {
            let url = crate::links::community_url(base, &self.store.web_token(&c).await?);
            out.reply(t(lang, "web-link", &[("url", url.into())]));
            return Ok(out);
        }
        if !req.user.admin {
            out.reply(t(lang, "table-not-allowed", &[]));
            return Ok(out);
        }
        let url = crate::links::community_url(base, &self.store.rotate_web_token(&c).await?);
        out.push(crate::outbox::Out::Post {
            chat: req.chat.clone(),
            text: t(
                community_lang(&self.store, &req.chat).await,
                "web-link-new",
                &[("name", req.user.name.clone().into()), ("url", url.into())],
            ),
            once: None,
        });
        out.reply("✓");
        Ok(out)
    }

    /// An admin lists the community's pages on the site's front page under `name` (made
    /// public: anyone can find them there), or with None takes them off it. Going private
    /// also replaces the link, since the listed one was seen by anyone.
    pub(crate) async fn web_public(
        &self,
        req: &Request,
        name: Option<&str>,
        lang: Lang,
    ) -> Result<Outbox, HostError> {
        let mut out = Outbox::default();
        let Some(base) = &self.config.web_url else {
            out.reply(t(lang, "web-off", &[]));
            return Ok(out);
        };
        if !req.user.admin {
            out.reply(t(lang, "table-not-allowed", &[]));
            return Ok(out);
        }
        let c = req.chat.community_ref();
        let said = community_lang(&self.store, &req.chat).await;
        let who = ("name", Arg::from(req.user.name.clone()));
        let text = match name.map(|n| n.split_whitespace().collect::<Vec<_>>().join(" ")) {
            Some(listed) if listed.is_empty() || listed.chars().count() > PUBLIC_NAME_MAX => {
                out.reply(t(lang, "web-public-usage", &[]));
                return Ok(out);
            }
            Some(listed) => {
                let token = self.store.web_token(&c).await?;
                self.store.set_web_public(&c, Some(&listed)).await?;
                t(
                    said,
                    "web-public-on",
                    &[
                        who,
                        ("listed", listed.into()),
                        ("url", crate::links::community_url(base, &token).into()),
                    ],
                )
            }
            None => {
                self.store.set_web_public(&c, None).await?;
                let token = self.store.rotate_web_token(&c).await?;
                t(
                    said,
                    "web-public-off",
                    &[who, ("url", crate::links::community_url(base, &token).into())],
                )
            }
        };
        out.push(crate::outbox::Out::Post {
            chat: req.chat.clone(),
            text,
            once: None,
        });
        out.reply("✓");
        Ok(out)
    }

    /// The line that links the community's boards, when the web face is on.
    pub(crate) async fn boards_link(&self, c: &CommunityRef, lang: Lang) -> Option<String> {
        crate::links::web_line(
            &self.store,
            &self.config,
            c,
            lang,
            "web-see-boards",
            crate::links::community_url,
        )
        .await
    }

    /// The line that links a closing table's page, when the web face is on.
    pub(crate) async fn game_link(&self, live: &Live) -> Option<String> {
        let c = live.row.chat.community_ref();
        crate::links::web_line(
            &self.store,
            &self.config,
            &c,
            live.lang(),
            "web-see-game",
            |base, token| crate::links::game_url(base, token, live.id()),
        )
        .await
    }

    /// Rates a table that is closing (finished, or stopped after at least one whole deal)
    /// once: one side per player by game points (Belote: the two teams), computer players as
    /// `computer:<level>`. Tables without a person are not rated.
    pub(crate) async fn rate_table(&self, live: &Live) -> Result<(), HostError> {
        let Some(game) = live.game.as_ref() else {
            return Ok(());
        };
        let done = game.deal_no() - usize::from(game.in_deal());
        if done == 0
            || !live
                .seats
                .iter()
                .any(|s| matches!(s.occupant, Occupant::Human { .. }))
        {
            return Ok(());
        }
        let keys: Vec<String> = live
            .seats
            .iter()
            .map(|s| match &s.occupant {
                Occupant::Human { user_id } => user_id.clone(),
                Occupant::Computer { level } => format!("computer:{level}"),
            })
            .collect();
        let names = live.names();
        let c = live.row.chat.community_ref();
        let gname = &live.row.game;
        let known = self.store.ratings_of(&c, gname, &keys).await?;
        let before = |k: &str| known.iter().find(|r| r.player == k);
        let rating_of = |k: &str| before(k).map_or_else(Rating::default, |r| r.rating);
        let totals = game.totals();
        // Sides: seat lists and scores.
        let sides: Vec<(Vec<usize>, i64)> = if in_teams(gname) && keys.len() == 4 {
            vec![
                (vec![0, 2], i64::from(totals[0])),
                (vec![1, 3], i64::from(totals[1])),
            ]
        } else {
            (0..keys.len()).map(|s| (vec![s], i64::from(totals[s]))).collect()
        };
        let input: Vec<Side> = sides
            .iter()
            .map(|(seats, score)| Side {
                ratings: seats.iter().map(|&s| rating_of(&keys[s])).collect(),
                score: *score,
            })
            .collect();
        let rated = rate(&input);
        // A key seated twice (two computer players of one level) takes the mean of its new
        // ratings.
        let mut rows: Vec<(RatingRow, usize)> = Vec::new();
        for ((seats, _), new) in sides.iter().zip(&rated) {
            for (&s, r) in seats.iter().zip(new) {
                let key = &keys[s];
                match rows.iter_mut().find(|(row, _)| &row.player == key) {
                    Some((row, n)) => {
                        row.rating.mu += r.mu;
                        row.rating.sigma += r.sigma;
                        *n += 1;
                    }
                    None => rows.push((
                        RatingRow {
                            player: key.clone(),
                            name: if key.starts_with("computer:") {
                                key.clone()
                            } else {
                                names[s].clone()
                            },
                            rating: *r,
                            games: before(key).map_or(0, |b| b.games) + 1,
                            change: 0,
                        },
                        1,
                    )),
                }
            }
        }
        let rows: Vec<RatingRow> = rows
            .into_iter()
            .map(|(mut row, n)| {
                row.rating.mu /= n as f64;
                row.rating.sigma /= n as f64;
                row.change = row.rating.shown() - rating_of(&row.player).shown();
                row
            })
            .collect();
        self.store.apply_ratings(live.id(), &c, gname, &rows).await?;
        Ok(())
    }
}
