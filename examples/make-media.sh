#!/bin/sh
# Regenerates the example media in examples/photos and examples/clips from
# ffmpeg's built-in (lavfi) sources: no downloads, no randomness without a
# fixed seed. Run from anywhere:  sh examples/make-media.sh
#
# Made with ffmpeg 5.1 (Debian 12). Each run with the same ffmpeg build gives
# the same bytes (bitexact flags, one encoder thread); another ffmpeg version
# may encode the same pictures and sounds to slightly different bytes.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
photos="$here/photos"
clips="$here/clips"
mkdir -p "$photos" "$clips"

FFMPEG=${FFMPEG:-ffmpeg}
ff() { "$FFMPEG" -hide_banner -loglevel error -nostdin -y "$@"; }

# One frame of a lavfi graph to a 1280×720 JPEG.
# (-bitexact leaves the encoder's version string out of the file.)
photo() { # NAME QUALITY GRAPH
  ff -f lavfi -i "$3" -frames:v 1 -pix_fmt yuvj420p -q:v "$2" \
    -flags +bitexact -fflags +bitexact "$photos/$1"
}

# ---------------------------------------------------------------- photos

# 1. A "mini-Mandelbrot" in the set's upper antenna.
photo 01-mandelbrot.jpg 3 \
  "mandelbrot=s=1280x720:start_x=-0.16:start_y=1.035:start_scale=0.08:maxiter=1000,trim=end_frame=1"

# 2. A four-colour spiral gradient (colours given, seed fixed), with a little
#    seeded grain so it looks less synthetic.
photo 02-spiral.jpg 2 \
  "gradients=s=1280x720:type=spiral:n=4:c0=0x2a1b5c:c1=0xe0507a:c2=0xf6b55a:c3=0x2fb3a8:seed=7,format=gbrp,noise=alls=4:allf=u:all_seed=7"

# 3. A sunset: sky gradient with a glow, the sun, two layers of hills.
far="(0.58+0.05*sin(X/W*8.1+0.7)+0.025*sin(X/W*19.3+2.0))*H"
near="(0.70+0.06*sin(X/W*5.3+2.4)+0.02*sin(X/W*23.7))*H"
sun="lt(hypot(X-0.62*W,Y-0.50*H),0.085*H)"
glow="exp(-hypot(X-0.62*W,Y-0.50*H)/(0.35*H))"
layer() { # SKY SUN FAR_HILLS NEAR_HILLS  (one colour channel)
  echo "if(gt(Y,$near),$4-20*(Y/H-0.7),if(gt(Y,$far),$3,if($sun,$2,$1)))"
}
r=$(layer "min(255,235-90*Y/H+60*$glow)" 255 120 52)
g=$(layer "min(255,120+60*Y/H+70*$glow)" 236 60 28)
b=$(layer "min(255,150-60*Y/H+20*$glow)" 190 110 70)
photo 03-sunset.jpg 2 \
  "nullsrc=s=1280x720,format=gbrp,geq=r='$r':g='$g':b='$b',noise=alls=5:allf=u:all_seed=42"

# 4. A pastel "plasma" of crossed sine waves.
photo 04-plasma.jpg 2 \
  "nullsrc=s=1280x720,format=gbrp,geq=r='170+70*sin(X/90+2*sin(Y/130))':g='150+60*sin(Y/70+3*cos(X/170))':b='190+55*sin((X+Y)/110)'"

# ---------------------------------------------------------------- clips
# 3 s, 30 fps, 1280×720, H.264 (yuv420p) + AAC stereo 48 kHz in MP4.

clip() { # NAME VIDEO_GRAPH AUDIO_EXPRESSION CRF
  ff -f lavfi -i "$2" \
    -f lavfi -i "aevalsrc=exprs='$3':s=48000:c=stereo:d=3" \
    -t 3 -map 0:v -map 1:a \
    -c:v libx264 -preset slow -crf "$4" -pix_fmt yuv420p -threads 1 \
    -x264-params "threads=1:lookahead-threads=1" \
    -c:a aac -b:a 96k \
    -movflags +faststart -flags +bitexact -fflags +bitexact \
    "$clips/$1"
}

# 1. A zoom into the mini-Mandelbrot of photo 1, under a C major chord
#    (C4 E4 G4) that swells in and fades out.
chord="(sin(2*PI*261.63*t)+sin(2*PI*329.63*t)+sin(2*PI*392.00*t))*0.18*min(1,t/0.3)*min(1,(3-t)/0.5)"
clip 01-zoom.mp4 \
  "mandelbrot=s=1280x720:r=30:start_x=-0.16:start_y=1.035:start_scale=0.16:end_scale=0.04:end_pts=90:maxiter=600" \
  "$chord" 33

# 2. ffmpeg's testsrc2 pattern (moving shapes and a running clock, handy to
#    check timing) under a plucked arpeggio, eight notes of 0.375 s:
#    C4 E4 G4 C5 G4 E4 C4 G3.
k="floor(t/0.375)"
m="mod(t,0.375)"
semitone="if(eq($k,0),0,if(eq($k,1),4,if(eq($k,2),7,if(eq($k,3),12,if(eq($k,4),7,if(eq($k,5),4,if(eq($k,6),0,-5)))))))"
note="0.45*sin(2*PI*261.63*pow(2,$semitone/12)*$m)*min(1,$m*200)*exp(-4*$m)*(1-$m/0.375)"
clip 02-pattern.mp4 "testsrc2=s=1280x720:r=30" "$note" 33

ls -l "$photos" "$clips"
