# Homebrew formula for patchcli, built from source with the user's Swift toolchain.
#   brew install --HEAD --build-from-source Formula/patchcli.rb
# A release adds `url` (the tag's tarball) and its `sha256`; the tarball has no .git, so the
# formula passes the tag's commit to `make install` for `patchcli --version`.
# Not yet run under brew (the development machines have neither brew nor ruby): the install layout is
# `make install`'s and the test block's commands are the CLI's, both tested outside Homebrew.
class Patchcli < Formula
  desc "Over-the-air code updates for native Swift apps: build, run and ship Patch modules"
  homepage "https://github.com/patch-release/patchcli"
  head "https://github.com/patch-release/patchcli.git", branch: "main"

  depends_on "pkgconf" => :build
  on_macos do
    # Swift 6.3 or newer: its toolchain ships the Embedded wasm32 standard library `build` needs.
    depends_on xcode: ["26.4", :build]
  end
  # wasm-opt: `patchcli build` shrinks modules with it (build.wasmOpt "auto"); `doctor` checks it.
  depends_on "binaryen"
  depends_on "brotli"
  depends_on "xz"
  depends_on "zstd"

  uses_from_macos "swift" => :build
  uses_from_macos "bzip2"
  uses_from_macos "sqlite"

  def install
    commit = if build.head?
      Utils.git_short_head
    else
      "unknown"
    end
    # `make install` is the one install layout (bin/patchcli, share/patchcli/templates, build-info),
    # found relative to the executable through Homebrew's bin/ symlink, and it writes the shell
    # completions (`patchcli --generate-completion-script bash|zsh|fish`) into the folders Homebrew
    # links for its shells: bash's is etc/bash_completion.d, not make's default
    # share/bash-completion/completions. SwiftPM's own sandbox cannot nest inside Homebrew's build
    # sandbox.
    system "make", "install", "PREFIX=#{prefix}", "COMMIT=#{commit}",
           "BASH_COMPLETION_DIR=#{bash_completion}", "ZSH_COMPLETION_DIR=#{zsh_completion}",
           "FISH_COMPLETION_DIR=#{fish_completion}", "SWIFT_BUILD_FLAGS=--disable-sandbox"
  end

  def caveats
    <<~EOS
      `patchcli build` compiles patch modules with a Swift 6.3+ toolchain that has the Embedded Swift
      standard library for wasm32 (swift.org toolchains do): put its usr/bin on PATH, set
      SWIFT_TOOLCHAIN or pass --toolchain. `patchcli doctor` checks the toolchain, wasm-opt and codecs.
    EOS
  end

  test do
    assert_match(/^patchcli \S+ \(\S+\)$/, shell_output("#{bin}/patchcli --version").strip)
    assert_path_exists share/"patchcli/templates/guest/Prelude.swift"
    # A codec round trip exercises the linked brotli; diff exercises the core.
    (testpath/"old").write "hello patch " * 100
    (testpath/"new").write "hello patch! " * 100
    system bin/"patchcli", "diff", "create", "old", "new", "-o", "patch.bin"
    system bin/"patchcli", "diff", "apply", "old", "patch.bin", "-o", "out"
    assert_equal (testpath/"new").read, (testpath/"out").read
    system bin/"patchcli", "diff", "compress", "new", "-o", "new.br"
    system bin/"patchcli", "diff", "decompress", "new.br", "-o", "new.out"
    assert_equal (testpath/"new").read, (testpath/"new.out").read
    # Signing: owner-only keys, a TUF store signed with them, verified.
    system bin/"patchcli", "keys", "generate", "--out", "keys"
    assert_equal "600", format("%o", (testpath/"keys/targets.key").stat.mode & 0777)
    system bin/"patchcli", "release", "init", "--store", "store", "--key-dir", "keys"
    system bin/"patchcli", "verify", "store"
  end
end
