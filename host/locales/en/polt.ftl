# stikis messages for Polt to Tzar, English. The ranks keep their names: Tzar, President,
# Upper Class, Middle Class, Lower Class, Polt.

polt-tzar = Tzar
polt-president = President
polt-upper-class = Upper Class
polt-middle-class = Middle Class
polt-lower-class = Lower Class
polt-polt = Polt
game-command-polt = Open a Polt table

## Table message
polt-title = Polt to Tzar · hand { $deal } of { $hands }
polt-exchanging = { $giver } gives { $receiver } a card
polt-exchanged = { $giver } and { $receiver } exchanged { $count ->
    [one] a card
   *[other] { $count } cards
}
polt-trump = Trumps: { $suit }
polt-trick = Trick { $n }: { $cards }
polt-last-trick = Last trick: { $cards } → { $name }
polt-tricks-taken = Tricks: { $list }
polt-turn = Turn: { $name }

## Hand
polt-your-rank = You are { $rank }.
polt-hand = Your cards: { $cards }
polt-you-gave = You gave { $card }.
polt-you-received = You received { $card }.
polt-you-returned = You returned { $card }.
polt-you-got-back = You got back { $card }.
polt-give-one = Choose a card to give.
polt-return-suit = Return your highest { $suit }.
polt-return-joker = You received the joker: return your highest card of any suit.
polt-name-trump = Name trumps.
polt-button-trump = Trumps { $suit }

polt-over = That hand is over; use the buttons of your newest hand.

## Results
polt-new-ranks = New ranks: { $ranks }
polt-total-tricks = Tricks in all: { $totals }
polt-final = The session is over. { $name } is the Tzar.
