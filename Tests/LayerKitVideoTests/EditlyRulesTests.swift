import Foundation
import LayerKit
import LayerKitMedia
import XCTest

@testable import LayerKitEdit
@testable import LayerKitOutput
@testable import LayerKitTimeline
@testable import LayerKitVideo

/// editly's rules that an edit file is read and played by: its global default transition,
/// transition params and sound curves, mixVolume as amix's weights, a cut fitted at any speed.
final class EditlyRulesTests: XCTestCase {
  let clipInfo = ClipInfo(path: "c.mp4", width: 4, height: 4, frameRate: 30, duration: 60, hasAudio: true)

  func file(_ text: String) throws -> Edit {
    try EditFile.parse(Data(text.utf8), file: "e.json5", folder: ".").edit
  }

  /// Plays as an edit file is played; the transitions' SPECs as asked, each a fade.
  func play(_ edit: Edit, specs: inout [String]) throws -> PlayedEdit {
    var asked: [String] = []
    let played = try edit.play(sources: ["c.mp4": .clip(clipInfo)], editly: true) { spec, duration, _ in
      asked.append(spec.label)
      return TimelineTransition(effect: "fade", duration: duration, label: spec.label)
    }
    specs = asked
    return played
  }

  /// Without a word on transitions, editly plays half a second of a random effect between clips;
  /// a defaults.transition without a name is merged over that.
  func testTheGlobalDefaultTransitionIsHalfASecondOfARandomEffect() throws {
    let bare = try file("{ clips: [{ layers: [{ type: 'pause' }] }] }")
    XCTAssertEqual(bare.defaults?.transition?.name, "random")
    XCTAssertEqual(bare.defaults?.transition?.duration, 0.5)
    let partial = try file("{ defaults: { transition: { duration: 0.2 } }, clips: [{ layers: [{ type: 'pause' }] }] }")
    XCTAssertEqual(partial.defaults?.transition?.name, "random")
    XCTAssertEqual(partial.defaults?.transition?.duration, 0.2)
    let none = try file("{ defaults: { transition: null }, clips: [{ layers: [{ type: 'pause' }] }] }")
    XCTAssertNil(none.defaults?.transition)
  }

  /// A transition's params become the SPEC's `:NAME=VALUE`; audioOutCurve and audioInCurve reach
  /// the clips' sound as afade's curves; an unknown curve names its path.
  func testParamsAndSoundCurves() throws {
    let edit = try file(
      """
      { keepSourceAudio: true, clips: [
        { duration: 1, transition: { name: 'fade', duration: 0.5, params: { direction: [1, 0], amount: 0.5 },
                                     audioOutCurve: 'qsin', audioInCurve: 'exp' },
          layers: [{ type: 'video', path: 'c.mp4', cutTo: 1 }] },
        { duration: 1, layers: [{ type: 'video', path: 'c.mp4', cutTo: 1 }] },
      ] }
      """)
    var specs: [String] = []
    let played = try play(edit, specs: &specs)
    XCTAssertEqual(specs, ["fade:amount=0.5:direction=1,0"])
    XCTAssertEqual(played.transitions[0].audioOutCurve, "qsin")
    XCTAssertEqual(played.transitions[0].audioInCurve, "exp")
    let timeline = try Timeline(
      items: played.items, transitions: played.transitions, width: 4, height: 4, rate: try FrameRate(10))
    let mix = try XCTUnwrap(try AudioMix.make(for: timeline))
    XCTAssertTrue(mix.filterGraph.contains("afade=t=out:st=0.500000:d=0.500000:curve=qsin"), mix.filterGraph)
    XCTAssertTrue(mix.filterGraph.contains("afade=t=in:st=0:d=0.500000:curve=exp"), mix.filterGraph)
    var bad = edit
    if case .given(var t) = bad.clips[0].transition {
      t.audioOutCurve = "wobbly"
      bad.clips[0].transition = .given(t)
    }
    XCTAssertThrowsError(try play(bad, specs: &specs)) {
      XCTAssertTrue("\($0)".contains("clips[0].transition.audioOutCurve"), "\($0)")
    }
  }

  /// editly mixes the clips' sound and the tracks with amix's weights: each gets its weight's
  /// share of their sum (clipsAudioVolume 1 and mixVolume 50 and 49: 1 %, 50 %, 49 %).
  func testMixVolumesAreWeightsSharedOutOfOne() throws {
    let edit = try file(
      """
      { clipsAudioVolume: 1, audioTracks: [{ path: 'a.wav', mixVolume: 50 }, { path: 'b.wav', mixVolume: 49 }],
        clips: [{ duration: 1, layers: [{ type: 'pause' }] }] }
      """)
    var specs: [String] = []
    let played = try play(edit, specs: &specs)
    // The weights go to the final mix's amix (EditlySound); each track plays as it is.
    XCTAssertEqual(played.editlySound?.clipsWeight, 1)
    XCTAssertEqual(played.editlySound?.trackWeights, [50, 49])
    XCTAssertEqual(played.tracks.map(\.volume), [1, 1])
  }

  /// A clip duration fits its cut at any speed editly reaches (58 s into 1.5 s), where the
  /// commands keep to 0.25…4.
  func testACutIsFittedAtAnySpeed() throws {
    let edit = try file("{ clips: [{ duration: 1.5, layers: [{ type: 'video', path: 'c.mp4', cutTo: 58 }] }] }")
    var specs: [String] = []
    let played = try play(edit, specs: &specs)
    XCTAssertEqual(played.items[0].speed, 58 / 1.5, accuracy: 1e-9)
    XCTAssertThrowsError(
      try edit.play(sources: ["c.mp4": .clip(clipInfo)]) { _, d, _ in
        TimelineTransition(effect: "fade", duration: d)
      })
  }

  /// editly's Ken Burns: in 1 → 1 + a, out the other way, and left / right at 1.3 + a moving
  /// 1000 × a pixels across, from −500 × a (right) whatever the frame's size; `null` none.
  func testKenBurnsMovesAsEditlys() throws {
    let right = try XCTUnwrap(try Edit.motion("right", amount: 0.1, pan: nil, at: "c"))
    for (u, shift) in [(0.0, -50.0), (0.5, 0.0), (1.0, 50.0)] {
      let (scale, offset) = right.placement(at: u, width: 640)
      XCTAssertEqual(scale, 1.4, accuracy: 1e-12)
      XCTAssertEqual(offset.x * 640, shift, accuracy: 1e-9, "at \(u)")
    }
    let left = try XCTUnwrap(try Edit.motion("left", amount: 0.1, pan: nil, at: "c"))
    XCTAssertEqual(left.placement(at: 0, width: 1920).offset.x * 1920, 50, accuracy: 1e-9, "left starts to the right")
    let zoomIn = try XCTUnwrap(try Edit.motion("in", amount: nil, pan: nil, at: "c"))
    XCTAssertEqual(zoomIn.placement(at: 0.5).scale, 1.05, accuracy: 1e-12)
    XCTAssertNil(try Edit.motion("none", amount: nil, pan: nil, at: "c"))
  }
}
