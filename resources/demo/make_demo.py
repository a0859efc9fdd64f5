"""Generate the mtgui demo evaluation set.

This script builds a small, fully self-contained test set for trying out
mtgui (corpus BLEU and friends with bootstrap confidence intervals) without
any third-party data.  Every sentence below was written for mtgui by its
developers and is released with the project under the MIT licence.

What it makes (written next to this file):

* ``reference.sgm``      -- a NIST mteval SGML ``refset`` with two references:
                            "A" (the main text) and "B" (an independent
                            paraphrase of each sentence by a second writer).
* ``systems/<Name>.sgm`` -- four NIST ``tstset`` files, one per fake MT
                            system, derived from reference A by seeded
                            word-level noise (dropped, swapped, substituted and
                            duplicated words, altered numbers).

Systems and their per-word noise rates:

    Lumen 0.08, Quill 0.10 (meant to be statistically indistinguishable
    from Lumen), Tessera 0.20, Ostrich 0.35 (clearly the worst).

Each document additionally scales the rate by a factor in 0.7..1.3 drawn from
a fixed seed, so that documents differ.  There is no source side.

The output is deterministic: running ``python resources/demo/make_demo.py``
twice produces byte-identical files (only ``random.Random`` with fixed seeds
is used, and files are written as UTF-8 with LF line ends).
"""

from __future__ import annotations

import difflib
import random
import re
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

# ---------------------------------------------------------------------------
# Text data: (reference A, reference B) per sentence.  Original text written
# for mtgui; all people, places and events are invented.
# ---------------------------------------------------------------------------

Document = tuple[str, list[tuple[str, str]]]  # (docid, [(ref A, ref B), ...])
SystemDoc = tuple[str, list[str]]  # (docid, [hypothesis, ...])

DOCUMENTS: list[Document] = [
    (
        "bakery",
        [
            (
                "The only bakery in the village of Marrowby reopened on Saturday after being closed for almost two years.",
                "After nearly two years with its doors shut, the sole bakery in the village of Marrowby opened again on Saturday.",
            ),
            (
                "Its new owners, Priya Nandakumar and her brother Tom, bought the building in 2022 with help from a local savings club.",
                "Priya Nandakumar and her brother Tom, the new owners, purchased the building in 2022 with support from a local savings club.",
            ),
            (
                "By seven in the morning, a queue of more than 60 people stretched past the post office and the old chapel.",
                "At seven a.m. more than 60 people were already queuing, the line reaching beyond the post office and the old chapel.",
            ),
            (
                '"We were not sure anyone would come this early," Priya said, wiping flour from her hands.',
                '"We had no idea whether anybody would turn up so early," said Priya, brushing flour off her hands.',
            ),
            (
                "The ovens had to be replaced completely, which cost the family around 48,000 pounds.",
                "The family had to buy completely new ovens, at a cost of roughly 48,000 pounds.",
            ),
            (
                "They also rebuilt the counter using oak boards saved from a barn that collapsed during last winter's storms.",
                "They rebuilt the counter as well, using oak planks rescued from a barn that fell down in last winter's storms.",
            ),
            (
                "The shop now sells sourdough loaves, seeded rolls and a rhubarb tart made to their grandmother's recipe.",
                "On offer now are sourdough loaves, rolls topped with seeds and a rhubarb tart baked from their grandmother's recipe.",
            ),
            (
                "Most of the flour comes from a water-powered mill only twelve kilometres down the river.",
                "The bulk of the flour is supplied by a water-powered mill just twelve kilometres downriver.",
            ),
            (
                "Before the bakery closed, residents had to drive 25 minutes to the nearest supermarket for fresh bread.",
                "While the bakery was shut, people in the village faced a 25-minute drive to the closest supermarket for fresh bread.",
            ),
            (
                "Several older villagers without cars said they had simply stopped buying bread at all.",
                "A number of elderly residents who do not drive said they had just given up buying bread.",
            ),
            (
                "The bakery will deliver to them twice a week, using a second-hand electric van painted bright yellow.",
                "Twice a week the bakery will bring bread to them in a bright yellow, second-hand electric van.",
            ),
            (
                "Tom, who worked as a software tester in Leeds until last spring, admits he is still learning the trade.",
                "Tom, a software tester in Leeds until last spring, concedes that he is still learning the craft.",
            ),
            (
                '"My first batch of croissants looked like flat pancakes," he said with a laugh.',
                '"The first croissants I made came out like flat pancakes," he said, laughing.',
            ),
            (
                "The shop employs four people, including two teenagers who work there on weekends.",
                "Four people work at the shop, two of them teenagers who help out at weekends.",
            ),
            (
                "By noon on opening day every loaf had been sold, and the siblings had to close early.",
                "Every single loaf was gone by midday on the first day, so the brother and sister closed early.",
            ),
            (
                "They plan to open a small café corner with three tables before the end of the year.",
                "Before the year is out, they intend to add a little café corner with three tables.",
            ),
        ],
    ),
    (
        "bike-lanes",
        [
            (
                "A plan to build protected bike lanes along Station Road has divided opinion in Harwick for months.",
                "For months, opinion in Harwick has been split over a proposal for protected bike lanes on Station Road.",
            ),
            (
                "The city council will vote on the 3.5 million euro project at its meeting next Tuesday.",
                "Councillors are due to vote next Tuesday on the project, which would cost 3.5 million euros.",
            ),
            (
                "Under the proposal, one lane of car traffic would be removed along a 2.4-kilometre stretch.",
                "The plan would take away one car lane over a stretch of 2.4 kilometres.",
            ),
            (
                "Supporters say the change would make the busy road safer for the 1,200 cyclists who use it every day.",
                "Backers argue the road would become safer for the 1,200 cyclists who ride along it each day.",
            ),
            (
                "Between 2019 and 2023, police recorded 37 collisions involving bicycles on Station Road alone.",
                "Police figures show 37 crashes involving cyclists on Station Road alone from 2019 to 2023.",
            ),
            (
                '"My daughter rides to school here, and every morning I worry until she texts me," said parent Lena Okafor.',
                '"My daughter cycles to school along here, and each morning I am anxious until she sends me a message," parent Lena Okafor said.',
            ),
            (
                "Many shop owners on the street are against the plan because it would remove 45 parking spaces.",
                "A lot of shopkeepers on the road oppose the scheme, since 45 parking places would disappear.",
            ),
            (
                "Marco Bellini, who runs a hardware store near the station, fears that customers will simply drive elsewhere.",
                "Marco Bellini, owner of a hardware shop close to the station, is afraid that customers will just go somewhere else by car.",
            ),
            (
                '"People do not carry paint tins and ladders home on a bicycle," he told a public meeting last week.',
                '"Nobody takes ladders and tins of paint home by bike," he said at a public meeting last week.',
            ),
            (
                "City planners have suggested turning a nearby empty lot into a car park with 60 spaces.",
                "The city's planners have proposed converting an empty plot nearby into a car park holding 60 vehicles.",
            ),
            (
                "A survey of 800 residents found that 54 per cent supported the lanes and 38 per cent opposed them.",
                "In a poll of 800 residents, 54 per cent were in favour of the lanes while 38 per cent were against.",
            ),
            (
                "The rest said they had no opinion or did not know enough about the plan.",
                "The remaining people said they had no view or knew too little about the scheme.",
            ),
            (
                "Transport officials point to Almere and Ghent, where similar lanes led to more cycling within two years.",
                "Transport officials cite Almere and Ghent, where comparable lanes increased cycling within two years.",
            ),
            (
                "Critics reply that Harwick is hillier and wetter than either of those cities.",
                "Opponents answer that Harwick has more hills and more rain than both of those cities.",
            ),
            (
                "If the council approves the plan, construction could begin in early spring and last about five months.",
                "Should councillors give their approval, work could start early in the spring and take roughly five months.",
            ),
            (
                "Whatever the result, both sides expect a long and heated debate on Tuesday evening.",
                "Whichever way the vote goes, both camps are expecting a long, heated discussion on Tuesday night.",
            ),
        ],
    ),
    (
        "robotics",
        [
            (
                "A team of six students from Westfield High School has won a regional robotics competition for the first time.",
                "Six students from Westfield High School have, for the first time, won a regional robotics contest.",
            ),
            (
                'Their robot, nicknamed "Biscuit" by the team, had to sort coloured blocks and stack them on a moving platform.',
                'The team\'s robot, which they called "Biscuit", had to sort blocks by colour and pile them onto a platform that moved.',
            ),
            (
                "Thirty-two schools took part in the two-day event, which was held in a sports hall in Northbridge.",
                "The two-day event, staged in a sports hall in Northbridge, attracted thirty-two schools.",
            ),
            (
                "The students built the robot from spare parts, a borrowed motor and a budget of just 400 dollars.",
                "The pupils put the robot together from leftover parts, a motor they had borrowed and only 400 dollars.",
            ),
            (
                "Other teams had budgets of several thousand dollars and support from engineering companies.",
                "Some rival teams were working with several thousand dollars and backing from engineering firms.",
            ),
            (
                '"We knew we could not buy our way to the top, so we had to be clever," said captain Aisha Rahman, 16.',
                '"We could not spend our way to first place, so we had to be smart," said team captain Aisha Rahman, aged 16.',
            ),
            (
                "The team met every Thursday after school and on many Saturday mornings since September.",
                "Since September the students had gathered after classes every Thursday and on a lot of Saturday mornings.",
            ),
            (
                "Their biggest problem was a gripper arm that kept dropping blocks at the worst possible moment.",
                "The main difficulty was a gripping arm that kept letting go of blocks at the worst moment.",
            ),
            (
                "Two weeks before the contest, a student named Daniel Kovač redesigned the arm using a 3D printer in the school library.",
                "A fortnight ahead of the contest, a student called Daniel Kovač redesigned the arm with a 3D printer in the school library.",
            ),
            (
                "In the final round, Biscuit stacked nine blocks in 90 seconds, beating the runner-up by a single block.",
                "In the last round Biscuit piled up nine blocks in 90 seconds, one block more than the team in second place.",
            ),
            (
                "Their teacher, Mr Hollis, said the students had done almost all of the work themselves.",
                "Mr Hollis, their teacher, said the pupils had done nearly all of the work on their own.",
            ),
            (
                '"My job was mostly to order pizza and keep the fire extinguisher nearby," he joked.',
                '"Mostly I ordered pizza and kept the fire extinguisher close at hand," he joked.',
            ),
            (
                "The win means the team will travel to the national final in Coventry in June.",
                "Thanks to the victory, the team will go to the national final in Coventry in June.",
            ),
            (
                "The school is now trying to raise 2,500 dollars to pay for travel and new batteries.",
                "The school is now hoping to collect 2,500 dollars to cover the journey and new batteries.",
            ),
            (
                "Local businesses, including Patel & Daughters Hardware, have already promised to help.",
                "Several local businesses, among them Patel & Daughters Hardware, have already offered their support.",
            ),
        ],
    ),
    (
        "mountain-rescue",
        [
            (
                "Two hikers were rescued on Sunday night after spending nine hours stranded on a narrow ledge in the Kessel Mountains.",
                "On Sunday night two walkers were brought to safety after nine hours trapped on a narrow ledge in the Kessel Mountains.",
            ),
            (
                "The pair, both in their twenties, had left the main trail to take a shortcut down a steep gully.",
                "The two, both aged in their twenties, had left the main path to take a short cut down a steep gully.",
            ),
            (
                "Loose rock gave way beneath them, and they slid about 30 metres before stopping on the ledge.",
                "The rock under their feet gave way, and they slipped roughly 30 metres before coming to a halt on the ledge.",
            ),
            (
                "One of them managed to call the emergency number, but the signal dropped several times.",
                "One of the hikers was able to phone the emergency number, although the signal kept cutting out.",
            ),
            (
                "A team of 14 volunteers from the Kessel Valley Mountain Rescue set out shortly after 5 p.m.",
                "Fourteen volunteers from the Kessel Valley Mountain Rescue team left shortly after 5 p.m.",
            ),
            (
                "Thick fog meant that the helicopter from the regional air base could not fly.",
                "Because of dense fog, the helicopter from the regional air base was unable to take off.",
            ),
            (
                "The rescuers had to climb on foot in the dark, carrying ropes, stretchers and warm clothing.",
                "In the darkness the rescuers had to go up on foot, carrying ropes, stretchers and warm clothes.",
            ),
            (
                '"The fog was so thick that we could barely see the person in front of us," said team leader Jonas Albrecht.',
                '"The fog was so dense we could hardly see the person ahead of us," team leader Jonas Albrecht said.',
            ),
            (
                "They reached the ledge just before midnight and found the hikers cold but able to talk.",
                "Shortly before midnight they got to the ledge, where the hikers were cold but still able to speak.",
            ),
            (
                "One hiker had a badly sprained ankle and was lowered down the slope on a stretcher.",
                "One of the two had badly sprained an ankle and was lowered down the hillside on a stretcher.",
            ),
            (
                "The whole operation lasted more than eleven hours and ended at around 4.30 a.m.",
                "The entire operation took over eleven hours and finished at about 4.30 a.m.",
            ),
            (
                "The rescue service has been called out 73 times this year, already more than in all of 2021.",
                "So far this year the rescue service has had 73 call-outs, already more than in the whole of 2021.",
            ),
            (
                "Albrecht said many walkers rely on phone maps that do not show how dangerous some shortcuts are.",
                "According to Albrecht, a lot of hikers depend on phone maps that fail to show how risky certain shortcuts are.",
            ),
            (
                "He urged visitors to stay on marked paths, check the weather and carry a head-torch.",
                "He called on visitors to keep to marked trails, check the forecast and take a head-torch.",
            ),
            (
                "The two hikers later visited the rescue station to thank the volunteers in person.",
                "Afterwards the two hikers went to the rescue station to thank the volunteers face to face.",
            ),
            (
                'They brought a large box of chocolates and a handwritten card signed "from the ledge people".',
                'They came with a big box of chocolates and a card written by hand, signed "from the ledge people".',
            ),
        ],
    ),
    (
        "library",
        [
            (
                "The public library in Corran Street reopened on Monday after a renovation that took almost three years.",
                "After nearly three years of renovation work, the public library on Corran Street opened its doors again on Monday.",
            ),
            (
                "The building, which dates from 1908, had been closed when inspectors found serious damage to the roof.",
                "The building, constructed in 1908, was shut after inspectors discovered serious damage to its roof.",
            ),
            (
                "The renovation cost 6.2 million pounds, most of it paid by the city and a national heritage fund.",
                "The works cost 6.2 million pounds, with most of the money coming from the city and a national heritage fund.",
            ),
            (
                "Workers repaired the roof, replaced the windows and installed a lift so that every floor is accessible.",
                "Builders fixed the roof, put in new windows and added a lift so that all floors can be reached.",
            ),
            (
                "The old reading room, with its tall windows and green lamps, has been restored to its original look.",
                "The former reading room, known for its high windows and green lamps, now looks as it originally did.",
            ),
            (
                "On the ground floor there is now a children's corner with bean bags, puppets and a small stage.",
                "The ground floor now has a corner for children, with bean bags, puppets and a little stage.",
            ),
            (
                "The library holds about 85,000 books, and 12,000 new titles were bought during the closure.",
                "There are roughly 85,000 books in the library, including 12,000 new titles acquired while it was closed.",
            ),
            (
                "More than 900 people visited on the first day, according to head librarian Margaret Osei.",
                "Head librarian Margaret Osei said that over 900 visitors came on the opening day.",
            ),
            (
                '"Some of them came just to sit in the reading room again, and a few of them cried," she said.',
                '"Some people came only to sit in the reading room once more, and several of them were in tears," she said.',
            ),
            (
                "During the closure, a temporary library operated from two rooms above a shoe shop on the high street.",
                "While the building was shut, a temporary library ran out of two rooms over a shoe shop on the high street.",
            ),
            (
                "Volunteers carried more than 40,000 books back to the main building in the last month.",
                "Over the past month, volunteers moved over 40,000 books back into the main building.",
            ),
            (
                "The library will now stay open until eight in the evening on weekdays, two hours later than before.",
                "On weekdays the library will now be open until 8 p.m., two hours longer than previously.",
            ),
            (
                "It also offers free computer classes for older residents and a homework club for teenagers.",
                "Free computer courses for elderly residents and a homework club for teenagers are also on offer.",
            ),
            (
                "Eleven-year-old Sam Whitaker was the first child to borrow a book after the doors opened.",
                "Sam Whitaker, aged eleven, was the first child to take out a book once the doors were open.",
            ),
            (
                'He chose a thick book about volcanoes and said he would return it "in exactly three weeks".',
                'He picked a thick volume about volcanoes and promised to bring it back "in exactly three weeks".',
            ),
        ],
    ),
    (
        "festival",
        [
            (
                "The small town of Elmsford expects around 15,000 visitors this weekend for its annual summer music festival.",
                "About 15,000 people are expected in the little town of Elmsford this weekend for its yearly summer music festival.",
            ),
            (
                "The festival began in 2009 as a single evening concert in the back garden of a local pub.",
                "It started in 2009 as one evening concert held in the back garden of a pub in the town.",
            ),
            (
                "This year it has grown to three days, four stages and more than 70 bands and solo artists.",
                "This year it has expanded to three days, four stages and over 70 bands and solo performers.",
            ),
            (
                "Most of the performers come from the region, but several have travelled from Ireland, Portugal and Canada.",
                "The majority of acts are from the region, though a few have come from Ireland, Portugal and Canada.",
            ),
            (
                "Tickets cost 35 pounds for the whole weekend, and children under twelve get in free.",
                "A weekend ticket costs 35 pounds, and entry is free for children under twelve.",
            ),
            (
                "The festival is run almost entirely by volunteers, from the sound engineers to the people selling lemonade.",
                "Nearly everyone involved in running the festival is a volunteer, from the sound engineers to the lemonade sellers.",
            ),
            (
                '"We have about 300 volunteers, and some of them have helped every single year," said organiser Ruth Delaney.',
                '"There are roughly 300 volunteers, and a few of them have helped every year without fail," organiser Ruth Delaney said.',
            ),
            (
                "Local residents have mixed feelings about the noise, especially those living near the main stage.",
                "People in the town feel differently about the noise, particularly those who live close to the main stage.",
            ),
            (
                "To reduce complaints, the organisers have agreed to stop all music at eleven o'clock every night.",
                "In order to cut the number of complaints, organisers have promised to end all music at eleven each night.",
            ),
            (
                "They have also moved the largest stage to a field on the edge of town, away from the houses.",
                "The biggest stage has also been moved to a field at the edge of the town, further from homes.",
            ),
            (
                "Shops and cafés say the weekend is the busiest of the whole year for them.",
                "For shops and cafés, the festival weekend is the busiest of the entire year.",
            ),
            (
                "Last year the festival brought an estimated 1.2 million pounds into the local economy.",
                "According to estimates, the festival added 1.2 million pounds to the local economy last year.",
            ),
            (
                "The headline act on Saturday is a folk-rock group called The Lantern Keepers, who formed in Elmsford twenty years ago.",
                "Saturday's headliners are The Lantern Keepers, a folk-rock band that was formed in Elmsford twenty years ago.",
            ),
            (
                "Their singer, Owen Price, still lives three streets away from the festival field.",
                "Owen Price, the band's singer, still lives three streets from the festival field.",
            ),
            (
                '"Playing here feels like playing in my own living room, only with a much bigger crowd," he said.',
                '"Performing here is like playing in my own front room, just with a far larger audience," he said.',
            ),
            (
                "Organisers have asked visitors to travel by train or bus because parking in the town is very limited.",
                "Visitors are being asked to come by train or bus, as there is very little parking in the town.",
            ),
            (
                "Extra trains will run from Carlow Junction on Friday and Saturday, with the last one leaving at midnight.",
                "Additional trains will run from Carlow Junction on Friday and Saturday, the final one departing at midnight.",
            ),
        ],
    ),
]

# ---------------------------------------------------------------------------
# Noise configuration
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class System:
    """A fake MT system: a name, a per-word noise rate and an RNG seed."""

    name: str
    rate: float
    seed: int


#: The seeds were picked (among a dozen tried) so that Lumen and Quill come out
#: close: with these seeds a paired bootstrap on BLEU does not separate them.
SYSTEMS: list[System] = [
    System("Lumen", 0.08, 3101),
    System("Quill", 0.10, 3202),
    System("Tessera", 0.20, 3303),
    System("Ostrich", 0.35, 3404),
]

#: Seed for the per-document rate factors (one factor in 0.7..1.3 per document).
DOC_FACTOR_SEED = 7070
DOC_FACTOR_RANGE = (0.7, 1.3)

SETID = "mtgui-demo"
SRCLANG = "xx"
TRGLANG = "en"

#: Near-synonyms and typical wrong choices, keyed by lower-cased word.
SUBSTITUTIONS: dict[str, tuple[str, ...]] = {
    "the": ("a", "this"),
    "a": ("the", "one"),
    "an": ("the",),
    "said": ("told", "stated", "say"),
    "told": ("said", "informed"),
    "big": ("large", "great"),
    "large": ("big", "huge"),
    "small": ("little", "tiny"),
    "little": ("small",),
    "new": ("novel", "fresh"),
    "old": ("former", "aged"),
    "many": ("numerous", "much"),
    "also": ("too", "as well"),
    "after": ("following", "behind"),
    "before": ("prior", "ahead"),
    "people": ("persons", "peoples"),
    "city": ("town", "urban"),
    "town": ("city", "village"),
    "village": ("town",),
    "more": ("most", "further"),
    "about": ("around", "over"),
    "around": ("about",),
    "almost": ("nearly", "most"),
    "nearly": ("almost",),
    "because": ("since", "as"),
    "help": ("assist", "aid"),
    "children": ("kids", "childs"),
    "bought": ("purchased", "buyed"),
    "began": ("started",),
    "every": ("each", "all"),
    "first": ("initial", "firstly"),
    "last": ("final", "past", "latest"),
    "most": ("majority", "many"),
    "some": ("several", "any"),
    "several": ("some", "various"),
    "very": ("really", "too"),
    "only": ("just", "alone"),
    "just": ("only", "fair"),
    "home": ("house",),
    "road": ("street", "way"),
    "street": ("road",),
    "morning": ("evening",),
    "night": ("evening", "day"),
    "year": ("years", "annual"),
    "in": ("on", "at", "into"),
    "on": ("in", "at", "upon"),
    "at": ("in", "on"),
    "of": ("from", "for"),
    "to": ("towards", "for"),
    "for": ("to", "during"),
    "with": ("by", "along"),
    "from": ("of", "out"),
    "their": ("there", "its"),
    "was": ("were", "is"),
    "were": ("was", "are"),
    "is": ("are", "was"),
    "has": ("have", "had"),
    "had": ("has", "have"),
    "will": ("would", "shall"),
    "would": ("will",),
    "could": ("can", "might"),
    "not": ("no",),
    "and": ("but", "as well as"),
    "we": ("us",),
    "they": ("them",),
    "he": ("him",),
    "built": ("constructed", "made"),
    "found": ("discovered", "founded"),
    "reached": ("arrived", "attained"),
    "near": ("close", "nearby"),
    "busy": ("crowded", "occupied"),
    "cold": ("chilly", "cool"),
    "team": ("squad", "group"),
    "stage": ("scene", "podium"),
    "book": ("novel",),
    "books": ("volumes",),
    "rescue": ("salvage", "rescuing"),
}

#: Relative weights of the noise operations (when applicable to a word).
OP_WEIGHTS: dict[str, int] = {"number": 4, "substitute": 3, "drop": 2, "swap": 2, "duplicate": 1}

_TOKEN_RE = re.compile(r"^(\W*)(.*?)(\W*)$", re.DOTALL)

# ---------------------------------------------------------------------------
# Noise
# ---------------------------------------------------------------------------


@dataclass
class Token:
    """A whitespace token split into leading punctuation, core and trailing punctuation."""

    lead: str
    core: str
    trail: str

    @classmethod
    def parse(cls, text: str) -> Token:
        """Split ``text`` (one whitespace-delimited word) into its three parts."""
        match = _TOKEN_RE.match(text)
        assert match is not None
        return cls(*match.groups())

    def render(self) -> str:
        """Return the token as text."""
        return f"{self.lead}{self.core}{self.trail}"


def match_case(replacement: str, original: str) -> str:
    """Capitalise ``replacement`` if ``original`` starts with a capital letter."""
    if original[:1].isupper():
        return replacement[:1].upper() + replacement[1:]
    return replacement


def change_number(core: str, rng: random.Random) -> str:
    """Replace one digit of ``core`` with a different digit (no new leading zero)."""
    positions = [i for i, ch in enumerate(core) if ch.isdigit()]
    pos = rng.choice(positions)
    first_digit = pos == positions[0]
    choices = [d for d in "0123456789" if d != core[pos] and not (first_digit and d == "0")]
    return core[:pos] + rng.choice(choices) + core[pos + 1 :]


def applicable_ops(tokens: list[Token], i: int, n_out: int) -> list[str]:
    """List the noise operations that make sense for token ``i``.

    ``n_out`` is the number of words already emitted for this sentence.
    """
    tok = tokens[i]
    if not tok.core:
        return []
    ops: list[str] = []
    if any(ch.isdigit() for ch in tok.core):
        ops.append("number")
    if tok.core.lower() in SUBSTITUTIONS:
        ops.append("substitute")
    last = i == len(tokens) - 1
    if not tok.lead and (n_out > 0 or not (tok.trail or last)):
        ops.append("drop")
    if n_out >= 2:
        ops.append("swap")
    ops.append("duplicate")
    return ops


def corrupt(sentence: str, rate: float, rng: random.Random) -> str:
    """Apply seeded word-level noise to ``sentence``.

    Each word independently receives one operation with probability ``rate``:
    change a number, substitute a near-synonym / wrong word, drop the word,
    swap it with the previous word, or duplicate it.  Punctuation attached to a
    word stays in place (a dropped word's trailing punctuation moves to the
    previous word), and at least one word always survives.
    """
    tokens = [Token.parse(t) for t in sentence.split()]
    out: list[Token] = []
    capitalise_next = False
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        ops = applicable_ops(tokens, i, len(out))
        if not ops or rng.random() >= rate:
            out.append(Token(tok.lead, tok.core, tok.trail))
        else:
            op = rng.choices(ops, weights=[OP_WEIGHTS[o] for o in ops])[0]
            if op == "number":
                out.append(Token(tok.lead, change_number(tok.core, rng), tok.trail))
            elif op == "substitute":
                repl = rng.choice(SUBSTITUTIONS[tok.core.lower()])
                out.append(Token(tok.lead, match_case(repl, tok.core), tok.trail))
            elif op == "drop":
                if out:
                    out[-1].trail += tok.trail
                else:
                    capitalise_next = True
            elif op == "swap":
                prev = out[-1]
                out.append(Token(tok.lead, prev.core, tok.trail))
                prev.core = tok.core
            elif op == "duplicate":
                out.append(Token(tok.lead, f"{tok.core} {tok.core}", tok.trail))
        if capitalise_next and out:
            out[0].core = out[0].core[:1].upper() + out[0].core[1:]
            capitalise_next = False
        i += 1
    return " ".join(t.render() for t in out)


def doc_factors(n_docs: int) -> list[float]:
    """Per-document noise multipliers in ``DOC_FACTOR_RANGE`` from a fixed seed."""
    rng = random.Random(DOC_FACTOR_SEED)
    low, high = DOC_FACTOR_RANGE
    return [round(rng.uniform(low, high), 3) for _ in range(n_docs)]


def make_system(system: System, docs: list[Document], factors: list[float]) -> list[SystemDoc]:
    """Derive one system's output documents from reference A."""
    rng = random.Random(system.seed)
    result: list[SystemDoc] = []
    for (docid, pairs), factor in zip(docs, factors, strict=False):
        rate = min(1.0, system.rate * factor)
        result.append((docid, [corrupt(a, rate, rng) for a, _ in pairs]))
    return result


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------


# What kind of story each document is: a document attribute, as WMT's genre and origlang, for
# trying out breakdowns (mtgui eval --demo --by genre). The references carry it.
GENRES = {
    "bakery": "local",
    "bike-lanes": "local",
    "mountain-rescue": "local",
    "robotics": "science",
    "library": "culture",
    "festival": "culture",
}


def doc_block(sysid: str, docid: str, segments: list[str], genre: str | None = None) -> list[str]:
    """Render one ``<doc>`` element with numbered, escaped ``<seg>`` lines."""
    kind = f' genre="{genre}"' if genre else ""
    lines = [f'<doc sysid="{sysid}" docid="{docid}"{kind}>']
    lines += [f'<seg id="{n}">{escape(seg)}</seg>' for n, seg in enumerate(segments, start=1)]
    lines.append("</doc>")
    return lines


def write_lines(path: Path, lines: list[str]) -> None:
    """Write ``lines`` as UTF-8 with LF line ends and a trailing newline."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as fh:
        fh.write("\n".join(lines) + "\n")


def write_refset(path: Path, docs: list[Document]) -> None:
    """Write both references (A, then B) as a NIST ``refset``."""
    lines = [f'<refset setid="{SETID}" srclang="{SRCLANG}" trglang="{TRGLANG}">']
    for column, sysid in ((0, "A"), (1, "B")):
        for docid, pairs in docs:
            lines += doc_block(sysid, docid, [pair[column] for pair in pairs], GENRES[docid])
    lines.append("</refset>")
    write_lines(path, lines)


def write_tstset(path: Path, name: str, docs: list[SystemDoc]) -> None:
    """Write one system's output as a NIST ``tstset``."""
    lines = [f'<tstset setid="{SETID}" srclang="{SRCLANG}" trglang="{TRGLANG}">']
    for docid, hyps in docs:
        lines += doc_block(name, docid, hyps)
    lines.append("</tstset>")
    write_lines(path, lines)


# ---------------------------------------------------------------------------
# Checks and summary
# ---------------------------------------------------------------------------


def check_data(docs: list[Document]) -> None:
    """Sanity-check the hand-written text (unique ids, 14-18 sentences, 8-30 words)."""
    ids = [docid for docid, _ in docs]
    assert len(ids) == len(set(ids)), "duplicate doc ids"
    for docid, pairs in docs:
        assert 14 <= len(pairs) <= 18, f"{docid}: {len(pairs)} sentences"
        for n, pair in enumerate(pairs, start=1):
            for text in pair:
                words = len(text.split())
                assert 8 <= words <= 30, f"{docid}:{n}: {words} words"
                assert text == text.strip() and "\n" not in text, f"{docid}:{n}: whitespace"


def changed_fraction(refs: list[str], hyps: list[str]) -> float:
    """Fraction of reference words not kept in place (difflib alignment)."""
    total = changed = 0
    for ref, hyp in zip(refs, hyps, strict=False):
        r, h = ref.split(), hyp.split()
        matcher = difflib.SequenceMatcher(None, r, h, autojunk=False)
        kept = sum(block.size for block in matcher.get_matching_blocks())
        total += len(r)
        changed += len(r) - kept
    return changed / total


def main() -> None:
    """Generate ``reference.sgm`` and ``systems/*.sgm`` next to this script."""
    check_data(DOCUMENTS)
    out_dir = Path(__file__).resolve().parent
    factors = doc_factors(len(DOCUMENTS))
    write_refset(out_dir / "reference.sgm", DOCUMENTS)
    refs = [a for _, pairs in DOCUMENTS for a, _ in pairs]
    print(f"{len(DOCUMENTS)} documents, {len(refs)} segments, 2 references")
    print(
        "document factors: "
        + ", ".join(f"{d}={f}" for (d, _), f in zip(DOCUMENTS, factors, strict=False))
    )
    for system in SYSTEMS:
        docs = make_system(system, DOCUMENTS, factors)
        write_tstset(out_dir / "systems" / f"{system.name}.sgm", system.name, docs)
        hyps = [h for _, doc_hyps in docs for h in doc_hyps]
        print(
            f"{system.name:8s} rate={system.rate:.2f} seed={system.seed} "
            f"changed-words={changed_fraction(refs, hyps):.3f}"
        )


if __name__ == "__main__":
    main()
