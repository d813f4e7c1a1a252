#!/bin/sh
# Bot matrices of the Intrigue reference bots (issue 4), one per rulebook
# preset that holds the bots' key cards; Big Money Ultimate as the baseline.
# Run from the repository root after `cargo build --release`.
set -e
D=./target/release/domsim
S=strategies
N=${GAMES:-4000}
$D matrix $S/big_money_ultimate.dom $S/masquerade_big_money.dom $S/nobles.dom $S/duke_duchy.dom \
    $S/great_hall.dom $S/bridge.dom $S/upgrade.dom $S/harem.dom $S/scout.dom \
    --preset "Victory Dance" -n $N -o results/intrigue_matrix_victory_dance.csv
$D matrix $S/big_money_ultimate.dom $S/courtyard_big_money.dom $S/wishing_well.dom $S/torturer.dom \
    $S/masquerade_big_money.dom $S/scout.dom $S/upgrade.dom \
    --preset "Best Wishes" -n $N -o results/intrigue_matrix_best_wishes.csv
$D matrix $S/big_money_ultimate.dom $S/conspirator.dom $S/tribute.dom $S/saboteur.dom $S/harem.dom \
    --preset "Secret Schemes" -n $N -o results/intrigue_matrix_secret_schemes.csv
$D matrix $S/big_money_ultimate.dom $S/secret_chamber.dom $S/torturer.dom $S/saboteur.dom $S/bridge.dom \
    --preset "Deconstruction" -n $N -o results/intrigue_matrix_deconstruction.csv
$D matrix $S/big_money_ultimate.dom $S/minion.dom $S/nobles.dom $S/torturer.dom $S/courtyard_big_money.dom \
    --preset "Hand Madness" -n $N -o results/intrigue_matrix_hand_madness.csv
