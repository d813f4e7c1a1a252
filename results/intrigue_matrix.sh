#!/bin/sh
# Bot matrices of the Intrigue reference bots (issue 4), one per rulebook
# preset that holds the bots' key cards; Big Money Ultimate as the baseline.
# Run from the repository root after `cargo build --release`.
# DOMSIM=BINARY and OUT=FOLDER (default: results) change the binary and where
# the CSV files go: tests/it/shipped_results.rs runs this script that way and
# compares every file with the shipped one, byte for byte.
set -e
D=${DOMSIM:-./target/release/domsim}
O=${OUT:-results}
S=strategies
N=${GAMES:-4000}
"$D" matrix $S/big_money_ultimate.dom $S/masquerade_big_money.dom $S/nobles.dom $S/duke_duchy.dom \
    $S/great_hall.dom $S/bridge.dom $S/upgrade.dom $S/harem.dom $S/scout.dom \
    --preset "Victory Dance" -n $N -o "$O/intrigue_matrix_victory_dance.csv"
"$D" matrix $S/big_money_ultimate.dom $S/courtyard_big_money.dom $S/wishing_well.dom $S/torturer.dom \
    $S/masquerade_big_money.dom $S/scout.dom $S/upgrade.dom \
    --preset "Best Wishes" -n $N -o "$O/intrigue_matrix_best_wishes.csv"
"$D" matrix $S/big_money_ultimate.dom $S/conspirator.dom $S/tribute.dom $S/saboteur.dom $S/harem.dom \
    --preset "Secret Schemes" -n $N -o "$O/intrigue_matrix_secret_schemes.csv"
"$D" matrix $S/big_money_ultimate.dom $S/secret_chamber.dom $S/torturer.dom $S/saboteur.dom $S/bridge.dom \
    --preset "Deconstruction" -n $N -o "$O/intrigue_matrix_deconstruction.csv"
"$D" matrix $S/big_money_ultimate.dom $S/minion.dom $S/nobles.dom $S/torturer.dom $S/courtyard_big_money.dom \
    --preset "Hand Madness" -n $N -o "$O/intrigue_matrix_hand_madness.csv"
