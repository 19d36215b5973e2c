//! What goes into the host (a `Request`: who, where, which `Command`) and what comes out (an
//! `Outbox` of messages to show). Adapters translate platform updates into requests and the
//! outbox into API calls; nothing here knows a platform's API.

use serde_json::Value;
use stikis_core::ai::Level;

pub use crate::button::Button;
use crate::i18n::Lang;
use crate::store::ChatRef;
use crate::token::{Token, TokenError};

/// A button press as it entered: the token its button carried, decoded once, there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Press {
    /// The token as the button carried it (what a press handed to another process passes on).
    pub wire: String,
    /// What it decodes to; a string that no button of ours carries is kept as its error,
    /// answered as a bad button.
    pub token: Result<Token, TokenError>,
}

impl Press {
    pub fn new(wire: impl Into<String>) -> Press {
        let wire = wire.into();
        let token = Token::decode(&wire);
        Press { wire, token }
    }

    /// The table the press names, when it is a token at all.
    pub fn table(&self) -> Option<i64> {
        self.token.as_ref().ok().map(|t| t.table)
    }

    /// The press's action, when it is a token at all (`p:QC`, `join`, `hand`).
    pub fn action(&self) -> Option<&str> {
        self.token.as_ref().ok().map(|t| t.action.as_str())
    }
}

/// The action of a table's 🂠 button (`Command::ShowHand`): the presser's hand, asked for.
pub const SHOW_HAND: &str = "hand";

/// The person behind a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub id: String,
    pub name: String,
    /// The platform says this user administers the community (Telegram getChatMember,
    /// Discord's Manage Server).
    pub admin: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Open a table of `game` in this chat; `rules` is a preset name or a rules object
    /// (RECORD.md), `seats` the number of players.
    NewTable {
        game: String,
        rules: Option<Value>,
        seats: Option<usize>,
    },
    Join,
    Leave,
    AddBot {
        level: Level,
    },
    RemoveBot,
    Start,
    Stop,
    /// A button: lobby verbs and moves alike carry a token, decoded where it entered.
    Press(Press),
    /// "I'm back": a seat played by a computer player after timeouts returns to its owner.
    Back,
    /// Show my hand again (for players whose private chat is unreachable).
    ShowHand,
    /// My personal link to the live table of this chat (a spectator's, for one not seated).
    PlayLink,
    SetUserLang(Lang),
    SetCommunityLang(Lang),
    /// Seconds per move, or None for no limit.
    SetTurnLimit(Option<u32>),
    SetAutoStart(bool),
    /// The community's names for computer players, by seat (an empty list: the defaults).
    SetComputerNames(Vec<String>),
    Record,
    /// Close the chat's score sheet (no table may be open): its open personal pules are
    /// settled and the final standings posted; the next table starts a fresh sheet.
    CloseSheet,
    /// A community's board: ratings, or points over a period.
    Leaderboard(Board),
    /// The asker's statistics and ratings.
    Stats,
    /// The community's web pages: their link, or (admins, `rotate`) a new link that ends
    /// the old one.
    WebLink {
        rotate: bool,
    },
    /// An admin lists the community's pages on the site's front page under `name`, for
    /// anyone to find, or (None) takes them off it and gives them a new link.
    WebPublic {
        name: Option<String>,
    },
    /// An admin starts the community's next season (the old one stays viewable).
    NewSeason,
    /// Open a Zole tournament in this chat (admins): `rounds` rounds of `deals` deals per
    /// table, or of `minutes` minutes each (the deal in progress is finished); `computers`
    /// lets the admin enter computer players.
    NewTournament {
        rules: Option<Value>,
        rounds: usize,
        deals: Option<usize>,
        minutes: Option<u32>,
        /// Seconds per move at its tables (None: the chat's turn timer).
        turn: Option<u32>,
        computers: bool,
    },
    /// Something done to the chat's tournament (also what its buttons carry).
    Tournament(TournamentVerb),
}

impl Command {
    /// A press of a button that carried `wire`: decoded here, once.
    pub fn press(wire: impl Into<String>) -> Command {
        Command::Press(Press::new(wire))
    }
}

/// Which board `/top` shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Board {
    /// The skill ratings of every game (the default).
    Rating,
    /// Points over a period.
    Points(crate::store::Period),
}

impl Board {
    /// `/top` as both bots read it: nothing or `rating`; `day`, `week`, `month`, `all`;
    /// `season` (the current one) or `season N`. None for anything else.
    pub fn parse(args: &[&str]) -> Option<Board> {
        use crate::store::Period;
        let lower: Vec<String> = args.iter().map(|a| a.to_ascii_lowercase()).collect();
        let words: Vec<&str> = lower.iter().map(String::as_str).collect();
        Some(match words.as_slice() {
            [] | ["rating"] => Board::Rating,
            ["day" | "today"] => Board::Points(Period::Day),
            ["week"] => Board::Points(Period::Week),
            ["month"] => Board::Points(Period::Month),
            ["all"] => Board::Points(Period::All),
            ["season"] => Board::Points(Period::Season(None)),
            ["season", n] => Board::Points(Period::Season(Some(n.parse().ok().filter(|&n| n >= 1)?))),
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TournamentVerb {
    Join,
    /// Before the start: take the entry back. Later: withdraw (mid-round a computer player
    /// finishes the round for the player).
    Leave,
    AddComputer,
    Start,
    Pause,
    Resume,
    Cancel,
    /// The whole tournament as one file.
    Record,
    /// The standings message again, as a new message.
    Standings,
}

impl TournamentVerb {
    /// The button code (after `T:`).
    pub fn code(self) -> &'static str {
        match self {
            TournamentVerb::Join => "j",
            TournamentVerb::Leave => "l",
            TournamentVerb::AddComputer => "b",
            TournamentVerb::Start => "s",
            TournamentVerb::Pause => "p",
            TournamentVerb::Resume => "r",
            TournamentVerb::Cancel => "x",
            TournamentVerb::Record => "f",
            TournamentVerb::Standings => "t",
        }
    }

    pub fn from_code(c: &str) -> Option<TournamentVerb> {
        use TournamentVerb::*;
        [
            Join,
            Leave,
            AddComputer,
            Start,
            Pause,
            Resume,
            Cancel,
            Record,
            Standings,
        ]
        .into_iter()
        .find(|v| v.code() == c)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// Where the command was given (for presses in a private chat: that chat; the token
    /// names the table).
    pub chat: ChatRef,
    pub user: User,
    pub command: Command,
}

impl Request {
    /// The press this request is, if it is one.
    pub fn press(&self) -> Option<&Press> {
        match &self.command {
            Command::Press(p) => Some(p),
            _ => None,
        }
    }
}

/// `rows` as a surface without disabled buttons draws them: the disabled ones left out, and
/// the rows of cards filled again (at most `BUTTONS_PER_ROW` a row), as the hand's playable
/// cards alone were drawn before there were disabled buttons. Rows without a disabled button
/// are returned as they are.
pub fn pressable(rows: &[Vec<Button>]) -> Vec<Vec<Button>> {
    if !rows.iter().flatten().any(|b| b.disabled) {
        return rows.to_vec();
    }
    let mut out: Vec<Vec<Button>> = Vec::new();
    let mut cards: Vec<Button> = Vec::new();
    let flush = |cards: &mut Vec<Button>, out: &mut Vec<Vec<Button>>| {
        out.extend(
            cards
                .chunks(crate::picture::BUTTONS_PER_ROW)
                .map(<[Button]>::to_vec),
        );
        cards.clear();
    };
    for row in rows {
        if !row.is_empty() && row.iter().all(|b| b.card.is_some()) {
            cards.extend(row.iter().filter(|b| !b.disabled).cloned());
            continue;
        }
        flush(&mut cards, &mut out);
        let row: Vec<Button> = row.iter().filter(|b| !b.disabled).cloned().collect();
        if !row.is_empty() {
            out.push(row);
        }
    }
    flush(&mut cards, &mut out);
    out
}

/// How an adapter shows a hand (`Out::Private`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum HandDelivery {
    /// As the adapter shows hands (one with nothing to press may be held back a while).
    #[default]
    Show,
    /// At once: its person just pressed, in a chat that another process received the press
    /// from and handed to this one, the table's owner.
    Pressed,
    /// Not at all: the table's owner (another process) showed it. It is here for the press's
    /// receiver to read (a popup's legend, numbered choices). On Telegram, where any process
    /// can edit a person's private messages, only the owner shows a table's hands while it
    /// owns it, and need not claim their versions (`Store::claim_hand`).
    Shown,
    /// Only as an edit of a message that shows it already, never as a new message: the
    /// final state (no buttons) of a hand held back while its person had the live table
    /// open (`Host::hold_watched`), whose deal is over or whose table stopped. The chat's
    /// older version of it, if any, keeps no live-looking button; a deal played wholly on
    /// the page costs the chat nothing.
    IfShown,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Out {
    /// A table's public message in its chat; one message per `key`, edited in place.
    Public {
        chat: ChatRef,
        key: String,
        text: String,
        buttons: Vec<Vec<Button>>,
        /// What state of its table (or tournament) it shows: the last action's number. Several
        /// processes edit one message, so an adapter claims the version before it sends it
        /// (`Store::claim_shown`) and never replaces a newer version with an older one.
        version: i64,
    },
    /// A player's private message (their hand); one message per `key`, edited in place.
    /// `chat` is the table's chat, for adapters that fall back to it.
    Private {
        user: String,
        chat: ChatRef,
        key: String,
        text: String,
        buttons: Vec<Vec<Button>>,
        /// What state of its table it shows (the last action's number), claimed like a
        /// public message's: a hand is never replaced by an older state of it, whichever
        /// process (the table's owner, the receiver of a handed press, one that took the
        /// table over) shows which version when.
        version: i64,
        /// How the adapter shows it.
        delivery: HandDelivery,
    },
    /// A new message in the chat (deal results, seeds, notices). With `once`, a key: the
    /// message is posted once under that key, whoever shows it and however often (a deal's
    /// result, shown again by the process that takes over a table whose last process died
    /// before showing it). Adapters remember the key with the message and skip a post whose
    /// key they have.
    Post {
        chat: ChatRef,
        text: String,
        once: Option<String>,
    },
    /// A file for the chat (a record).
    File {
        chat: ChatRef,
        name: String,
        content: String,
    },
    /// The short answer to the user who gave the command or pressed the button.
    Reply { text: String },
    /// A message for `user` and nobody else (a personal link to the live table): Discord
    /// shows it as the ephemeral reply, Telegram in the private chat, or, when that chat is
    /// closed to the bot, `closed` in `chat` instead (never the message itself).
    Personal {
        user: String,
        chat: ChatRef,
        text: String,
        closed: String,
    },
    /// A late answer to a press whose receiver (another process) deferred its answer and
    /// died before giving it, and whose move was not committed: `follow` is what the
    /// receiver gave to reach the person (a Discord interaction's token, valid for 15
    /// minutes), `text` the answer ("try again"), which only that person sees.
    FollowUp { follow: String, text: String },
}

impl Out {
    /// The text of any message kind.
    pub fn text(&self) -> &str {
        match self {
            Out::Public { text, .. }
            | Out::Private { text, .. }
            | Out::Post { text, .. }
            | Out::Reply { text }
            | Out::Personal { text, .. }
            | Out::FollowUp { text, .. } => text,
            Out::File { content, .. } => content,
        }
    }

    /// True for what everybody in the chat can read.
    pub fn is_public(&self) -> bool {
        matches!(self, Out::Public { .. } | Out::Post { .. } | Out::File { .. })
    }
}

/// Everything one request (or one timer) asks the adapter to show, in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outbox(pub Vec<Out>);

impl Outbox {
    pub fn push(&mut self, o: Out) {
        self.0.push(o);
    }
    pub fn reply(&mut self, text: impl Into<String>) {
        self.0.push(Out::Reply { text: text.into() });
    }
    pub fn extend(&mut self, other: Outbox) {
        self.0.extend(other.0);
    }
    /// The reply to the actor, if any.
    pub fn reply_text(&self) -> Option<&str> {
        self.0.iter().find_map(|o| match o {
            Out::Reply { text } => Some(text.as_str()),
            _ => None,
        })
    }
}
