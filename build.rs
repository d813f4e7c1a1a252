//! Build facts the binary reports about itself: whether it is a
//! profile-guided build (`scripts/pgo.sh`), or the instrumented build that
//! collects the profile. `domsim bench` prints it with the machine, so a
//! recorded run says which build it measured.

fn main() {
    println!("cargo:rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    // `-Cprofile-use=F` or `-C profile-use=F` (two arguments).
    let has = |opt: &str| flags.split('\x1f').any(|f| f.contains(opt));
    let kind = if has("profile-use=") {
        "profile-guided"
    } else if has("profile-generate") {
        "instrumented"
    } else {
        ""
    };
    println!("cargo:rustc-env=DOMSIM_PGO={kind}");
}
