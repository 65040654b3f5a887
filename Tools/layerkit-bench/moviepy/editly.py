#!/usr/bin/env python3
"""The bench's editly-spec workload in MoviePy 2 (layerkit-bench --suite runs it where python3
imports moviepy): six clips at 1280x720, 30 fps — a title over a linear gradient, a still with a
Ken Burns zoom and a title, three video cuts (one titled), a title over a radial gradient —
0.5 s crossfades (the second transition a slide from the right, editly's directional-left), a
looped music bed, to MP4 with x264 veryfast and AAC, as `layerkit edit` renders the same spec in
the same run.

usage: editly.py OUT STILL CLIP0 CLIP1 CLIP2 MUSIC
"""
import sys

import numpy as np
from moviepy import (AudioFileClip, ColorClip, CompositeVideoClip, ImageClip, TextClip, VideoFileClip, afx,
                     concatenate_videoclips, vfx)

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
W, H = 1280, 720


def gradient(a, b, radial):
    """Two colours, top to bottom, or centre to corners."""
    a, b = np.array(a, float), np.array(b, float)
    y, x = np.mgrid[0:H, 0:W]
    if radial:
        t = np.hypot(x + 0.5 - W / 2, y + 0.5 - H / 2) / np.hypot(W / 2, H / 2)
    else:
        t = y / (H - 1)
    return (a + (b - a) * np.clip(t, 0, 1)[..., None]).astype(np.uint8)


def titled(clip, text):
    title = (TextClip(font=FONT, text=text, font_size=43, color="white", bg_color="black")
             .with_duration(clip.duration).with_position(("center", 0.72), relative=True))
    return CompositeVideoClip([clip, title], size=(W, H))


def fit(clip):
    return clip.resized((W, H))


def main(out, still, c0, c1, c2, music):
    intro = titled(ImageClip(gradient((2, 170, 176), (0, 205, 172), False)).with_duration(2), "LayerKit")
    zoom = (ImageClip(still).resized(height=H).with_duration(3)
            .resized(lambda t: 1 + 0.1 * t / 3).with_position("center"))
    burns = titled(CompositeVideoClip([zoom], size=(W, H)), "Ken Burns")
    cut0 = fit(VideoFileClip(c0).subclipped(1, 4))
    cut1 = titled(fit(VideoFileClip(c1).subclipped(0, 3)), "Cuts")
    cut2 = fit(VideoFileClip(c2).subclipped(2, 5))
    outro = titled(ImageClip(gradient((40, 40, 80), (0, 0, 0), True)).with_duration(2), "The end")
    clips = [intro, burns.with_effects([vfx.CrossFadeIn(0.5)]),
             cut0.with_effects([vfx.SlideIn(0.5, "right")]),
             cut1.with_effects([vfx.CrossFadeIn(0.5)]), cut2.with_effects([vfx.CrossFadeIn(0.5)]),
             outro.with_effects([vfx.CrossFadeIn(0.5)])]
    video = concatenate_videoclips(clips, method="compose", padding=-0.5)
    bed = AudioFileClip(music).with_effects([afx.AudioLoop(duration=video.duration)])
    video = video.with_audio(bed)
    video.write_videofile(out, fps=30, codec="libx264", preset="veryfast", audio_codec="aac", logger=None)


if __name__ == "__main__":
    if len(sys.argv) != 7:
        sys.exit(__doc__)
    main(*sys.argv[1:])
