import Foundation
import LayerKit
import LayerKitMedia
import XCTest

@testable import LayerKitEdit
@testable import LayerKitOutput
@testable import LayerKitTimeline
@testable import LayerKitVideo

/// The edit as data: its JSON in editly's shape, editly's rules for durations, speeds and
/// transitions when it is played, the audio tracks' filter chains, and the fields it refuses.
final class EditTests: XCTestCase {
  let clipInfo = ClipInfo(path: "c.mp4", width: 4, height: 4, frameRate: 30, duration: 10, hasAudio: true)

  func sources() throws -> [String: MediaSource] {
    ["c.mp4": .clip(clipInfo), "a.png": .image(Still(try Image(width: 4, height: 4, color: .red), name: "a.png"))]
  }

  /// Plays with every transition a plain fade of the asked duration (its SPEC as the label).
  func play(_ edit: Edit) throws -> PlayedEdit {
    try edit.play(sources: try sources()) { spec, duration, _ in
      TimelineTransition(effect: "fade", duration: duration, label: spec.label)
    }
  }

  func decode(_ json: String) throws -> Edit { try JSONDecoder().decode(Edit.self, from: Data(json.utf8)) }

  func testAnEditRoundTripsThroughItsJSONKeepingNullTransitionsApartFromMissingOnes() throws {
    var video = Edit.Video(path: "c.mp4", cutFrom: 1, cutTo: 3)
    video.speed = 2
    var track = Edit.AudioTrack(path: "m.wav")
    track.voice = true
    var edit = Edit(clips: [
      Edit.Clip(duration: 2, transition: .given(.init(name: "push:fromRight", duration: 0.5)), layers: [.video(video)]),
      Edit.Clip(transition: .none, layers: [.image(.init(path: "a.png")), .title(.init(text: "Hi"))]),
      Edit.Clip(layers: [.image(.init(path: "a.png"))]),
    ])
    edit.audioTracks = [track]
    edit.ducking = Edit.Ducking(amount: 12)
    let json = try edit.json()
    XCTAssertTrue(json.contains(#""transition" : null"#), json)
    XCTAssertTrue(json.contains(#""type" : "video""#), json)
    XCTAssertEqual(try decode(json), edit)
    XCTAssertEqual(edit.mediaPaths, ["c.mp4", "a.png"])
  }

  /// editly: a clip's duration from its cut; with a duration and a cut but no speed, the cut is
  /// sped to fit; an image without one takes defaults.duration; transitions from the defaults,
  /// `null` a cut.
  func testPlayingFollowsEditlysRulesForDurationsSpeedsAndTransitions() throws {
    let edit = try decode(
      """
      {"defaults": {"duration": 3, "transition": {"name": "crosswarp", "duration": 0.4}},
       "clips": [
         {"layers": [{"type": "video", "path": "c.mp4", "cutFrom": 2, "cutTo": 5}]},
         {"duration": 1.5, "layers": [{"type": "video", "path": "c.mp4", "cutFrom": 0, "cutTo": 3}], "transition": null},
         {"layers": [{"type": "image", "path": "a.png", "zoomDirection": "out"}], "transition": {"duration": 0.2}},
         {"duration": 5, "layers": [{"type": "video", "path": "c.mp4", "cutTo": 2, "loop": true}]}
       ]}
      """)
    let played = try play(edit)
    XCTAssertEqual(played.items.map(\.duration), [3, 1.5, 3, 5])
    XCTAssertEqual(played.items.map(\.speed), [1, 2, 1, 1])
    XCTAssertEqual(played.items[0].inPoint, 2)
    XCTAssertEqual(played.items[3].loopLength, 2)
    XCTAssertEqual(played.items[2].motion, KenBurns(zoom: .out, amount: 0.1))
    XCTAssertEqual(played.transitions.map(\.label), ["crosswarp", "none", "crosswarp"])
    XCTAssertEqual(played.transitions.map(\.duration), [0.4, 0, 0.2])
    XCTAssertFalse(played.clipAudio, "editly's keepSourceAudio defaults to false")
    XCTAssertNil(played.width, "no size given: the caller's default")
    // A cut plays as a timeline with a zero-length transition: item 2 starts where item 1 ends.
    let timeline = try Timeline(
      items: played.items, transitions: played.transitions, width: 4, height: 4, rate: try FrameRate(10))
    XCTAssertEqual(timeline.starts[2] - timeline.starts[1], 1.5, accuracy: 1e-12)
    guard case .item(1, _) = timeline.content(ofFrame: 40), case .item(2, let local) = timeline.content(ofFrame: 42)
    else { return XCTFail("a cut shows the next item at once") }
    XCTAssertEqual(local, 0.1, accuracy: 1e-9)
  }

  func testFieldsThatCannotBePlayedAreNamedByTheirPath() throws {
    func reason(_ json: String) throws -> String {
      do {
        _ = try play(try decode(json))
        XCTFail("played: \(json)")
        return ""
      } catch let error as VideoError {
        return error.description
      }
    }
    // 3 s into 0.5 s needs 6×.
    XCTAssertTrue(
      try reason(#"{"clips": [{"duration": 0.5, "layers": [{"type": "video", "path": "c.mp4", "cutTo": 3}]}]}"#)
        .contains("the edit's clips[0].duration: fitting the 3 s cut into 0.5 s needs speed 6"))
    XCTAssertTrue(
      try reason(#"{"clips": [{"layers": [{"type": "video", "path": "c.mp4", "cutFrom": 12}]}]}"#)
        .contains("clips[0].layers.cutFrom"))
    XCTAssertTrue(
      try reason(
        #"{"clips": [{"layers": [{"type": "image", "path": "a.png"}, {"type": "image", "path": "a.png", "originX": "middle"}]}]}"#
      ).contains("clips[0].layers[1].originX: left, center or right"))
    XCTAssertTrue(
      try reason(#"{"clips": [{"layers": [{"type": "image", "path": "a.png", "resizeMode": "fill"}]}]}"#)
        .contains("cover, contain, contain-blur or stretch"))
    XCTAssertTrue(
      try reason(
        #"{"clips": [{"layers": [{"type": "image", "path": "a.png"}]}], "audioTracks": [{"path": "m", "mixVolume": -1}]}"#
      )
      .contains("audioTracks[0].mixVolume: a gain from 0 to 16"))
    XCTAssertTrue(
      try reason(#"{"width": 640, "clips": [{"layers": [{"type": "image", "path": "a.png"}]}]}"#)
        .contains("the edit's height: give width and height, or neither"))
    XCTAssertTrue(
      try reason(#"{"fps": 0, "clips": [{"layers": [{"type": "image", "path": "a.png"}]}]}"#).contains("the edit's fps")
    )
    let sized = try play(
      try decode(
        #"{"width": 640, "height": 360, "fps": 25, "clips": [{"layers": [{"type": "image", "path": "a.png"}]}]}"#))
    XCTAssertEqual([sized.width, sized.height], [640, 360])
    XCTAssertEqual(sized.fps, 25)
    XCTAssertThrowsError(try decode(#"{"clips": [{"layers": [{"type": "fabric"}]}]}"#)) { error in
      XCTAssertTrue("\(error)".contains("a layer of type 'fabric': video, image, title"), "\(error)")
    }
  }

  /// A track cut from 2 s to 3.5 s, looped from 1 s of the video to its end, faded, at half
  /// volume: trimmed, repeated by aloop (1.5 s of samples), trimmed to the 9 s left, delayed.
  func testATracksChainCutsLoopsFadesAndPlacesIt() throws {
    var track = AudioMix.Track(path: "m.wav")
    (track.cutFrom, track.cutTo, track.loop, track.start) = (2, 3.5, true, 1)
    (track.fadeIn, track.fadeOut, track.volume) = (0.5, 2, 0.5)
    let (input, chain) = try XCTUnwrap(AudioMix.trackChain(track, index: 3, total: 10))
    XCTAssertEqual(input, ["-i", "m.wav"])
    XCTAssertEqual(
      chain,
      [
        "[3:a:0]aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo",
        "atrim=start=2.000000:end=3.500000", "asetpts=PTS-STARTPTS", "apad=whole_len=72000",
        "aloop=loop=-1:size=72000", "atrim=duration=9.000000", "afade=t=in:st=0:d=0.500000",
        "afade=t=out:st=7.000000:d=2.000000", "volume=0.5", "adelay=delays=48000S:all=1",
      ])
    // A whole file looped is read over and over by the demuxer; one starting after the end is
    // not heard at all.
    var whole = AudioMix.Track(path: "m.wav")
    whole.loop = true
    XCTAssertEqual(AudioMix.trackChain(whole, index: 1, total: 10)?.input, ["-stream_loop", "-1", "-i", "m.wav"])
    whole.start = 10
    XCTAssertNil(AudioMix.trackChain(whole, index: 1, total: 10))
  }

  /// Ducking 12 dB with a 0.5 s attack and a 1 s release around 2…4 s: full gain until 1.5 s,
  /// down by 2 s, back by 5 s.
  func testDuckingEasesDownOverTheAttackAndBackOverTheRelease() throws {
    let filter = AudioMix.duckFilter([2...4], db: 12, attack: 0.5, release: 1)
    XCTAssertTrue(filter.contains("clip((t-1.500000)/0.500000,0,1)"), filter)
    XCTAssertTrue(filter.contains("clip((5.000000-t)/1.000000,0,1)"), filter)
    XCTAssertTrue(filter.hasPrefix("volume=eval=frame:volume='1-0.7488"), filter)
  }

  /// editly's rule for edit files: a transition is at most half of either clip beside it; the
  /// video commands keep the transition as given (and the timeline refuses what cannot fit).
  func testEditFilesClampTransitionsToHalfTheirClips() throws {
    var edit = Edit(clips: [
      Edit.Clip(duration: 1, layers: [.image(.init(path: "a.png"))]),
      Edit.Clip(duration: 3, layers: [.image(.init(path: "a.png"))]),
      Edit.Clip(duration: 3, layers: [.image(.init(path: "a.png"))]),
    ])
    edit.defaults = Edit.Defaults(transition: Edit.Transition(name: "fade", duration: 2))
    let clamped = try edit.play(sources: try sources(), clampingTransitions: true) { spec, duration, _ in
      TimelineTransition(effect: "fade", duration: duration, label: spec.label)
    }
    XCTAssertEqual(clamped.transitions.map(\.duration), [0.5, 1.5], "half of the 1 s clip; half of the 3 s ones")
    XCTAssertEqual(try play(edit).transitions.map(\.duration), [2, 2])
  }
}
