#!/usr/bin/env python3
"""The bench's edit workload in MoviePy 2 (layerkit-bench --suite runs it where python3 imports
moviepy): four 1080p clips cut, the second at 2x, the third's 1.5 s looped to 4 s, 0.5 s
crossfades, a title over the first, a logo over everything, music 10 dB down under the clips'
sound (they have sound throughout, so a constant gain is the ducking) and the mix normalised
(MoviePy's AudioNormalize works on the peak: it has no loudness target), to MP4 with x264
veryfast and AAC, as `layerkit slideshow` does in the same run.

usage: edit.py OUT CLIP0 CLIP1 CLIP2 CLIP3 LOGO MUSIC
"""
import sys

from moviepy import (AudioFileClip, CompositeAudioClip, CompositeVideoClip, ImageClip, TextClip,
                     VideoFileClip, afx, concatenate_videoclips, vfx)

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def main(out, c0, c1, c2, c3, logo_path, music_path):
    first = VideoFileClip(c0).subclipped(1, 4.5)
    title = (TextClip(font=FONT, text="LayerKit", font_size=65, color="white", bg_color="black")
             .with_duration(first.duration).with_position(("center", 0.72), relative=True))
    first = CompositeVideoClip([first, title])
    fast = VideoFileClip(c1).subclipped(0, 8).with_effects([vfx.MultiplySpeed(2)])
    looped = VideoFileClip(c2).subclipped(2, 3.5).with_effects([vfx.Loop(duration=4)])
    last = VideoFileClip(c3).subclipped(0, 3.5)
    joined = [first] + [c.with_effects([vfx.CrossFadeIn(0.5), afx.AudioFadeIn(0.5)])
                        for c in (fast, looped, last)]
    video = concatenate_videoclips(joined, method="compose", padding=-0.5)
    logo = (ImageClip(logo_path).resized(width=288).with_duration(video.duration)
            .with_position((1920 - 288 - 32, 32)))
    video = CompositeVideoClip([video, logo])
    music = (AudioFileClip(music_path).subclipped(0, video.duration)
             .with_effects([afx.MultiplyVolume(10 ** (-10 / 20))]))
    audio = CompositeAudioClip([video.audio, music]).with_effects([afx.AudioNormalize()])
    video = video.with_audio(audio)
    video.write_videofile(out, fps=30, codec="libx264", preset="veryfast", audio_codec="aac", logger=None)


if __name__ == "__main__":
    if len(sys.argv) != 8:
        sys.exit(__doc__)
    main(*sys.argv[1:])
