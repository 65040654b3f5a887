#!/usr/bin/env python3
"""Makes the corpus's binary inputs (images/, y4m/, clips/) from pictures LayerKit and ffmpeg make.

The test reads the committed files; this script is how they were made, and how to make them
again (the bytes may differ with another ffmpeg, the errors they must give do not):

    swift build && python3 Tests/LayerKitToolTests/Corpus/make-binary.py .build/debug/layerkit

Every base picture comes from the project: a 32x18 PNG from `layerkit render --sample`, a Y4M
stream from `layerkit transition`, JPEG / GIF / BMP / TIFF / WebP / clips from ffmpeg's own
encoders and test sources. Each bad file is a base with a few bytes changed (CRCs recomputed where
the point is the field, not the CRC). Only the standard library.
"""

import os
import struct
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def run(*args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)


def write(folder, name, data):
    os.makedirs(os.path.join(HERE, folder), exist_ok=True)
    with open(os.path.join(HERE, folder, name), "wb") as f:
        f.write(data)


def chunks(png):
    """[(type, data)] of a PNG."""
    out, i = [], 8
    while i + 8 <= len(png):
        (length,) = struct.unpack(">I", png[i : i + 4])
        kind = png[i + 4 : i + 8]
        out.append((kind, png[i + 8 : i + 8 + length]))
        i += 12 + length
    return out


def chunk(kind, data, crc=None):
    c = zlib.crc32(kind + data) & 0xFFFFFFFF if crc is None else crc
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", c)


def png(parts):
    return b"\x89PNG\r\n\x1a\n" + b"".join(chunk(k, d) for k, d in parts)


def with_ihdr(base, width=None, height=None, depth=None, colour=None, interlace=None):
    parts = chunks(base)
    w, h, d, c, comp, filt, inter = struct.unpack(">IIBBBBB", parts[0][1])
    ihdr = struct.pack(
        ">IIBBBBB",
        w if width is None else width,
        h if height is None else height,
        d if depth is None else depth,
        c if colour is None else colour,
        comp,
        filt,
        inter if interlace is None else interlace,
    )
    return png([(b"IHDR", ihdr)] + parts[1:])


def images(layerkit, tmp):
    base_png = os.path.join(tmp, "base.png")
    run(layerkit, "render", "--sample", "--renderer", "cpu", "--size", "32x18", "-o", base_png)
    base = open(base_png, "rb").read()
    ff = ["ffmpeg", "-v", "error", "-y", "-i", base_png]
    for name, extra in [
        ("base.jpg", ["-q:v", "5"]),
        ("pal.png", ["-pix_fmt", "pal8"]),
        ("rgb48.png", ["-pix_fmt", "rgb48be"]),
        ("base.gif", []),
        ("base.bmp", []),
        ("base.tiff", []),
        ("base.webp", []),
    ]:
        run(*ff, *extra, os.path.join(tmp, name))
    jpg = open(os.path.join(tmp, "base.jpg"), "rb").read()
    parts = chunks(base)
    idat = b"".join(d for k, d in parts if k == b"IDAT")

    w = lambda name, data: write("images", name, data)
    w("empty.png", b"")
    w("signature-only.png", base[:8])
    w("partial-signature.png", base[:3])
    w("cut-in-ihdr.png", base[:20])
    w("cut-in-idat.png", base[: len(base) * 2 // 3])
    w("no-iend.png", base[:-12])
    bad = bytearray(base)
    bad[29] ^= 0xFF  # the IHDR's CRC
    w("bad-ihdr-crc.png", bytes(bad))
    w("bad-idat-crc.png", b"\x89PNG\r\n\x1a\n" + b"".join(chunk(k, d, 0x12345678 if k == b"IDAT" else None) for k, d in parts))
    garbled = bytearray(idat)
    for i in range(2, len(garbled) - 4):
        garbled[i] = (garbled[i] * 31 + 7) & 0xFF
    w("bad-deflate.png", png([(k, d) for k, d in parts if k == b"IHDR"] + [(b"IDAT", bytes(garbled)), (b"IEND", b"")]))
    w("no-idat.png", png([(k, d) for k, d in parts if k != b"IDAT"]))
    w("huge-dimensions.png", with_ihdr(base, width=100_000, height=100_000))
    w("too-wide.png", with_ihdr(base, width=16_385, height=1))
    w("too-many-pixels.png", with_ihdr(base, width=8_193, height=8_193))
    w("zero-width.png", with_ihdr(base, width=0))
    w("bit-depth-7.png", with_ihdr(base, depth=7))
    w("colour-type-5.png", with_ihdr(base, colour=5))
    w("interlace-method-2.png", with_ihdr(base, interlace=2))
    w("unknown-critical-chunk.png", png(parts[:1] + [(b"ABCD", b"????")] + parts[1:]))
    huge_length = bytearray(base)
    huge_length[33:37] = struct.pack(">I", 0x7FFFFFF0)  # the first chunk after IHDR claims 2 GB
    w("huge-chunk-length.png", bytes(huge_length))
    pal = open(os.path.join(tmp, "pal.png"), "rb").read()
    w("palette-without-plte.png", png([(k, d) for k, d in chunks(pal) if k != b"PLTE"]))
    rgb48 = open(os.path.join(tmp, "rgb48.png"), "rb").read()
    w("rgb16-cut.png", rgb48[: len(rgb48) // 2])
    w("text-named.png", b"this is a text file, not a picture\n")
    w("html-named.png", b"<!DOCTYPE html><html><body>404 Not Found</body></html>\n")
    w("random-bytes.png", bytes((i * 73 + 41) & 0xFF for i in range(200)))
    for ext in ["gif", "bmp", "tiff", "webp"]:
        w(f"{ext}-named.png", open(os.path.join(tmp, f"base.{ext}"), "rb").read())
    w("iso-media-named.png", b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(16))
    # JPEG
    w("soi-only.jpg", jpg[:2])
    w("soi-then-garbage.jpg", jpg[:3] + bytes((i * 13) & 0xFF for i in range(64)))
    w("cut-in-scan.jpg", jpg[: len(jpg) // 2])
    sof = jpg.index(b"\xff\xc0")
    big = bytearray(jpg)
    big[sof + 5 : sof + 9] = struct.pack(">HH", 60_000, 60_000)
    w("huge-sof.jpg", bytes(big))
    zero = bytearray(jpg)
    zero[sof + 5 : sof + 9] = struct.pack(">HH", 0, 0)
    w("zero-size-sof.jpg", bytes(zero))
    sos = jpg.index(b"\xff\xda")
    noise = bytearray(jpg)
    # Entropy-coded data replaced by 0xFF 0xD0.. markers and noise, the EOI kept: complete but corrupt.
    for i in range(sos + 20, len(noise) - 2):
        noise[i] = 0xFF if i % 2 == 0 else 0xD0 + (i % 8)
    w("corrupt-complete.jpg", bytes(noise))
    long_segment = bytearray(jpg)
    dqt = jpg.index(b"\xff\xdb")
    long_segment[dqt + 2 : dqt + 4] = struct.pack(">H", 0xFFF0)  # DQT's length runs past the EOI
    w("segment-past-end.jpg", bytes(long_segment))
    no_huffman = bytearray(jpg)
    dht = jpg.index(b"\xff\xc4")
    no_huffman[dht + 1] = 0xFE  # DHT turned into a COM segment: no Huffman tables at all
    w("no-huffman-tables.jpg", bytes(no_huffman))
    cmyk = os.path.join(HERE, "../../LayerKitMediaTests/Fixtures/flat-cmyk.jpg")
    w("cmyk.jpg", open(cmyk, "rb").read())


def y4m(layerkit, tmp):
    a = os.path.join(tmp, "a.png")
    run(layerkit, "render", "--sample", "--renderer", "cpu", "--size", "32x18", "-o", a)
    base_y4m = os.path.join(tmp, "base.y4m")
    run(layerkit, "transition", a, a, "--duration", "0.05", "--fps", "40", "--renderer", "cpu", "--quiet",
        "-o", base_y4m)
    base = open(base_y4m, "rb").read()
    header, rest = base.split(b"\n", 1)
    frame = 6 + 32 * 18 * 3 // 2
    w = lambda name, data: write("y4m", name, data)
    w("cut-in-frame.y4m", base[: len(header) + 1 + frame + 100])
    w("cut-in-frame-line.y4m", base[: len(header) + 1 + frame + 3])
    w("bad-frame-marker.y4m", header + b"\n" + rest[:frame] + b"FRAMX\n" + rest[frame + 6 :])
    w("garbage-between-frames.y4m", header + b"\n" + rest[:frame] + b"junk" + rest[frame:])
    w("frame-line-too-long.y4m", header + b"\n" + b"FRAME " + b"X" * 2000 + b"\n" + rest[6:])


def clips(tmp):
    w = lambda name, data: write("clips", name, data)
    fs = os.path.join(tmp, "fs.mp4")
    run("ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=32x18:r=10:d=1", "-c:v", "libx264",
        "-threads", "1", "-pix_fmt", "yuv420p", "-g", "2", "-movflags", "+faststart", fs)
    data = open(fs, "rb").read()
    w("cut-after-moov.mp4", data[: len(data) * 6 // 10])
    tail = os.path.join(tmp, "tail.mp4")
    run("ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=32x18:r=10:d=1", "-c:v", "libx264",
        "-threads", "1", "-pix_fmt", "yuv420p", "-g", "2", tail)
    data = open(tail, "rb").read()
    w("cut-before-moov.mp4", data[: len(data) // 2])
    audio = os.path.join(tmp, "audio.m4a")
    run("ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=d=0.3", "-c:a", "aac", audio)
    w("audio-only.mp4", open(audio, "rb").read())
    music = os.path.join(tmp, "music.m4a")
    run("ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=d=2", "-c:a", "aac", "-movflags", "+faststart", music)
    data = open(music, "rb").read()
    w("audio-cut-after-moov.m4a", data[: len(data) // 2])  # its index whole, half its packets gone
    animated = os.path.join(tmp, "animated.webp")
    run("ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=16x16:r=4:d=1", "-c:v", "libwebp_anim",
        "-loop", "0", animated)
    w("animated.webp", open(animated, "rb").read())  # whole and valid: ffmpeg 5.1 cannot decode it
    silence = os.path.join(tmp, "silence.wav")
    run("ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "anullsrc=r=8000:cl=mono", "-t", "0.2", silence)
    w("silence.wav", open(silence, "rb").read())  # a whole track of nothing: no loudness to measure
    w("text-named.mp4", b"this is a text file, not a clip\n")
    w("empty.mp4", b"")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make-binary.py PATH/TO/layerkit")
    layerkit = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        images(layerkit, tmp)
        y4m(layerkit, tmp)
        clips(tmp)


if __name__ == "__main__":
    main()
