#!/bin/sh
# Dark Ages bot matrices (2000 games per pair), run from the repository root
# after `cargo build --release`.
# DOMSIM=BINARY and OUT=FOLDER (default: results) change the binary and where
# the CSV files go: tests/it/shipped_results.rs runs this script that way and
# compares every file with the shipped one, byte for byte.
set -e
D=${DOMSIM:-./target/release/domsim}
O=${OUT:-results}
S=strategies
"$D" matrix -n 2000 -j 1 --preset "Grim Parade" -o "$O/dark_ages_matrix_grim_parade.csv" \
  $S/cultist.dom $S/knights.dom $S/procession.dom $S/catacombs.dom $S/fortress_engine.dom $S/band_of_misfits.dom $S/big_money_ultimate.dom
"$D" matrix -n 2000 -j 1 --preset "Invasion" -o "$O/dark_ages_matrix_invasion.csv" \
  $S/marauder.dom $S/beggar.dom $S/squire.dom $S/big_money_ultimate.dom
"$D" matrix -n 2000 -j 1 --preset "Playing Chess with Death" -o "$O/dark_ages_matrix_playing_chess_with_death.csv" \
  $S/graverobber.dom $S/rats.dom $S/junk_dealer.dom $S/big_money_ultimate.dom
"$D" matrix -n 2000 -j 1 --preset "Chivalry and Revelry" -o "$O/dark_ages_matrix_chivalry_and_revelry.csv" \
  $S/altar.dom $S/knights.dom $S/rats.dom $S/big_money_ultimate.dom
"$D" matrix -n 2000 -j 1 --preset "High and Low" -o "$O/dark_ages_matrix_high_and_low.csv" \
  $S/hermit.dom $S/poor_house.dom $S/big_money_ultimate.dom
"$D" matrix -n 2000 -j 1 --preset "Prophecy" -o "$O/dark_ages_matrix_prophecy.csv" \
  $S/rebuild.dom $S/big_money_ultimate.dom
"$D" matrix -n 2000 -j 1 --kingdom "Count,Counterfeit,Death Cart,Feodum,Market Square,Storeroom,Beggar,Urchin,Sage,Forager" -o "$O/dark_ages_matrix_custom.csv" \
  $S/count.dom $S/counterfeit.dom $S/death_cart.dom $S/feodum.dom $S/big_money_ultimate.dom
