# Homebrew formula for patchcli, built from source with the user's Swift toolchain.
#   brew install --HEAD --build-from-source Formula/patchcli.rb
# A release adds `url` (the tag's tarball) and its `sha256`; the tarball has no .git, so the
# formula passes the tag's commit to `make install` for `patchcli --version`.
class Patchcli < Formula
  desc "Over-the-air code updates for native Swift apps: build, run and ship Patch modules"
  homepage "https://github.com/patch-release/patchcli"
  head "https://github.com/patch-release/patchcli.git", branch: "main"

  depends_on "pkg-config" => :build
  on_macos do
    # Swift 6.3 or newer: its toolchain ships the Embedded wasm32 standard library `build` needs.
    depends_on xcode: ["26.4", :build]
  end
  # wasm-opt: `patchcli build` shrinks modules with it (build.wasmOpt "auto"); `doctor` checks it.
  depends_on "binaryen"
  depends_on "brotli"
  depends_on "xz"
  depends_on "zstd"

  uses_from_macos "bzip2"
  uses_from_macos "sqlite"

  def install
    commit = if build.head?
      Utils.git_short_head
    else
      "unknown"
    end
    # SwiftPM's own sandbox cannot nest inside Homebrew's build sandbox.
    system "make", "install", "PREFIX=#{prefix}", "COMMIT=#{commit}",
           "SWIFT_BUILD_FLAGS=--disable-sandbox"
    generate_completions_from_executable(bin/"patchcli", "--generate-completion-script")
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
  end
end
