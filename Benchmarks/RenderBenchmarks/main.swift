// Rendering benchmarks: the frame's path, from views to pixels, single
// threaded. Run with `Benchmarks/render.sh` (release build); `--quick` does
// a short run; `--count full|damaged|scroll|scroll-redrawn|drag|animated|fading|animated-picture|moving|push|sheet|flip|table|table-turn` repeats one measurement a fixed
// number of times inside a function of its own, for callgrind's
// --toggle-collect (see docs/compositor.md); `--frame PATH` writes the cards
// scene's full frame as a PNG, to look at or to compare two builds;
// `--table-frame PATH` the flung table's last frame (drawn by copies);
// `--transition-frames push|sheet|flip DIRECTORY` every frame of one
// transition, as PNGs named after it and the frame's number;
// `--table-only` times the flung table alone (with `--quick`, 3 flings).
//
// 1. The "cards" scene on a 1170×2532 pt screen at scale 1 (points are
//    pixels), opaque white: 200 views, i = 0…199, each over the ones before:
//    w = 200 + (i·37) mod 300, h = 80 + (i·53) mod 200,
//    x = (i·71) mod (1170 − w), y = (i·113) mod (2532 − h);
//    colour palette[i mod 6] (E74C3C, 3498DB, 2ECC71, F1C40F, 9B59B6, 1ABC9C);
//    corner radius 12 if i is even; a 2 pt black border if i mod 3 = 0;
//    alpha 0.8 (a group: the view and its subview fade together) if
//    i mod 5 = 0; rotated 15° about its centre if i mod 7 = 0; if
//    i mod 10 = 0 it clips to its (rounded) bounds and holds one subview at
//    (w/2, h/2) of size (w, h) in palette[(i + 1) mod 6].
//    - full frame: the whole frame composited from the committed tree;
//    - damaged frame: a 100×100 view at (500, 1200), above the cards,
//      changes colour; the run loop's turn commits it and the compositor
//      draws only that rectangle again (commit and composite both timed).
// 2. A list of 1,000 rows of 44 pt in a scroll view filling a 390×844 pt
//    screen at scale 3 (1170×2532 pixels): each frame moves the content
//    offset by 10 pt, commits and composites: the pixels already drawn
//    moved and the 30 exposed rows drawn (`--count scroll`), or the whole
//    visible list drawn again (`--count scroll-redrawn`, no scroll by copy).
// 3. Touch to pixels: a finger drags a card across the cards scene, 10 pt
//    per HID frame; each step runs from the frame's arrival at the input
//    port to the frame buffer holding the moved card (DragScene.swift).
// 4. Animation (AnimatedScenes.swift): every card of the cards scene moving
//    and fading in one `UIView.animate` block, a frame per display refresh
//    (the refresh on the manual clock, the commit of presentation values,
//    the composite of the damage); and the marker alone moving 1 pt per
//    refresh, the damaged frame of an animation.
// 4b. Screen transitions (TransitionScenes.swift) on a 390×844 pt screen at
//    scale 3: every refresh of a navigation push and of a page sheet
//    presented, each of a new screen of 16 rows, and of a card's flip
//    (`--count push`, `--count sheet`, `--count flip`: one transition's
//    frames, counted per frame).
// 5. A 10,000-row UITableView flung at 120 Hz on the same screen: thread
//    CPU time of each display refresh while it decelerates — motion, the
//    table's layout and cell reuse, commit, damaged frame (TableScene.swift);
//    median and 99th percentile. `--count table-turn` counts the same
//    frames without the compositor: UIKit's part of each refresh.

#if canImport(Glibc)
import Foundation
import Glibc
#endif
import UIKit

@MainActor
func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

func hex(_ value: Int) -> UIColor {
    UIColor(red: CGFloat((value >> 16) & 0xFF) / 255, green: CGFloat((value >> 8) & 0xFF) / 255, blue: CGFloat(value & 0xFF) / 255, alpha: 1)
}

let palette = [0xE74C3C, 0x3498DB, 0x2ECC71, 0xF1C40F, 0x9B59B6, 0x1ABC9C].map(hex)

/// The cards scene, committed, with its compositor.
@MainActor
struct CardsScene {
    let window: UIWindow
    let marker: UIView
    let compositor: LayerCompositor

    init() throws {
        let application = UIApplication.shared
        application.resetForTesting()
        application.runLoop.useManualClock()
        UIScreen.main.bounds = CGRect(x: 0, y: 0, width: 1170, height: 2532)
        UIScreen.main.scale = 1
        window = UIWindow(frame: UIScreen.main.bounds)
        window.backgroundColor = .white
        window.makeKeyAndVisible()
        for i in 0..<200 {
            let w = 200 + (i * 37) % 300, h = 80 + (i * 53) % 200
            let x = (i * 71) % (1170 - w), y = (i * 113) % (2532 - h)
            let card = UIView(frame: CGRect(x: x, y: y, width: w, height: h))
            card.backgroundColor = palette[i % 6]
            if i % 2 == 0 { card.layer.cornerRadius = 12 }
            if i % 3 == 0 {
                card.layer.borderWidth = 2
                card.layer.borderColor = UIColor.black.cgColor
            }
            if i % 5 == 0 { card.alpha = 0.8 }
            if i % 7 == 0 { card.transform = CGAffineTransform(rotationAngle: 15 * .pi / 180) }
            if i % 10 == 0 {
                card.clipsToBounds = true
                let inner = UIView(frame: CGRect(x: w / 2, y: h / 2, width: w, height: h))
                inner.backgroundColor = palette[(i + 1) % 6]
                card.addSubview(inner)
            }
            window.addSubview(card)
        }
        marker = UIView(frame: CGRect(x: 500, y: 1200, width: 100, height: 100))
        marker.backgroundColor = .black
        window.addSubview(marker)
        application.runLoop.runUntilIdle()
        compositor = try LayerCompositor(rootLayer: window.layer, pixelWidth: 1170, pixelHeight: 2532, scale: 1)
        compositor.backgroundColor = UIColor.white.cgColor
        compositor.renderFrame()
    }

    func fullFrame() {
        compositor.renderFullFrame()
    }

    /// One turn that changes the marker's colour, and the frame it damages.
    func damagedFrame(_ step: Int) -> [CGRect] {
        marker.backgroundColor = step % 2 == 0 ? .red : .blue
        UIApplication.shared.runLoop.runUntilIdle()
        return compositor.renderFrame()
    }
}

/// A 1,000-row list in a scroll view, committed, with its compositor.
@MainActor
struct ListScene {
    let window: UIWindow
    let list: UIScrollView
    let compositor: LayerCompositor

    init() throws {
        let application = UIApplication.shared
        application.resetForTesting()
        application.runLoop.useManualClock()
        let screen = UIScreen.main
        window = UIWindow(frame: screen.bounds)
        window.backgroundColor = .white
        window.makeKeyAndVisible()
        list = UIScrollView(frame: screen.bounds)
        list.contentSize = CGSize(width: 390, height: 44 * 1000)
        for row in 0..<1000 {
            let cell = UIView(frame: CGRect(x: 0, y: row * 44, width: 390, height: 44))
            cell.backgroundColor = row % 2 == 0 ? .white : UIColor(white: 0.95, alpha: 1)
            let icon = UIView(frame: CGRect(x: 16, y: 7, width: 30, height: 30))
            icon.backgroundColor = palette[row % 6]
            icon.layer.cornerRadius = 7
            cell.addSubview(icon)
            let separator = UIView(frame: CGRect(x: 62, y: 43.5, width: 328, height: 0.5))
            separator.backgroundColor = .lightGray
            cell.addSubview(separator)
            list.addSubview(cell)
        }
        window.addSubview(list)
        application.runLoop.runUntilIdle()
        compositor = try LayerCompositor(rootLayer: window.layer, pixelWidth: 1170, pixelHeight: 2532, scale: 3)
        compositor.renderFrame()
    }

    func scrollFrame() {
        var offset = list.contentOffset
        offset.y = offset.y >= 40_000 ? 0 : offset.y + 10
        list.contentOffset = offset
        UIApplication.shared.runLoop.runUntilIdle()
        compositor.renderFrame()
    }
}

// MARK: Counted runs (for callgrind --toggle-collect, or --dump-before)

// Each counted function holds no closure and calls nothing whose name
// contains its own, so that callgrind's toggle or dump on its name covers it
// alone; `countedRegionEnded`, called right after it, marks where it ends
// for `Benchmarks/instruction-counts.sh`, which dumps before both.

@inline(never)
func countedRegionEnded() {
    // Something the optimiser cannot remove, so that the function is called.
    if CommandLine.arguments.isEmpty { print("") }
}

@MainActor @inline(never) func countedFullFrames(_ scene: CardsScene, _ n: Int) { for _ in 0..<n { scene.fullFrame() } }
@MainActor @inline(never) func countedDamagedFrames(_ scene: CardsScene, _ n: Int) { for i in 0..<n { _ = scene.damagedFrame(i) } }
@MainActor @inline(never) func countedScrollFrames(_ scene: ListScene, _ n: Int) { for _ in 0..<n { scene.scrollFrame() } }
@MainActor @inline(never) func countedDragSteps(_ scene: DragScene, _ n: Int) { for _ in 0..<n { _ = scene.moveOneStep() } }
@MainActor @inline(never) func countedTableFrames(_ scene: TableScene, _ n: Int) { for _ in 0..<n { scene.frame() } }
/// The same loop as `countedTableFrames` over a scene that does not
/// composite; it checks that the table is still moving so that its body
/// differs (identical functions are folded into one symbol, which callgrind
/// would then never see called under this name).
@MainActor @inline(never) func countedTableTurns(_ scene: TableScene, _ n: Int) -> Bool {
    var moved = true
    for _ in 0..<n {
        scene.frame()
        moved = moved && scene.isMoving
    }
    return moved
}
@MainActor @inline(never) func countedAnimatedFrames(_ scene: AnimatedCardsScene, _ n: Int) { for _ in 0..<n { _ = scene.frame() } }
/// The frames of one push or one sheet's presentation (`--count push`, `--count sheet`).
@MainActor @inline(never) func countedTransitionFrames(_ scene: TransitionScene, _ n: Int) { for _ in 0..<n { transitionFrameCounted(scene) } }
/// One of those frames, a function of its own so that callgrind can dump
/// the counters at each (`--dump-before='*transitionFrameCounted*'`): the
/// frames one by one, the first (which loads the new screen) apart.
@MainActor @inline(never) func transitionFrameCounted(_ scene: TransitionScene) { _ = scene.frame() }
/// Also checks that every frame drew only around the marker. Besides being
/// worth checking, that keeps its body different from
/// `countedAnimatedFrames`': the optimiser folds functions with identical
/// code into one symbol (LLVM's function merging), and callgrind, never
/// seeing this name called, then counted nothing for `--count moving`.
@MainActor @inline(never) func countedMovingCardFrames(_ scene: OneMovingCardScene, _ n: Int) -> Bool {
    var aroundTheMarker = true
    for _ in 0..<n {
        for rect in scene.frame() where rect.width > 102 || rect.height > 100 { aroundTheMarker = false }
    }
    return aroundTheMarker
}

// MARK: Main

/// The compositor's frame as a PNG file.
@MainActor
func writePNG(_ compositor: LayerCompositor, to path: String) throws {
    let image = compositor.withUnsafeBytes { bytes in
        CGImage(width: compositor.pixelWidth, height: compositor.pixelHeight) { buffer in
            buffer.base.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        }
    }
    try image!.pngData().write(to: URL(fileURLWithPath: path))
}

@MainActor
func main() throws {
    let arguments = CommandLine.arguments
    let quick = arguments.contains("--quick")
    if arguments.contains("--table-only") {
        // The flung table alone (Benchmarks/qt-list.sh runs it beside Qt's QListView).
        return try measureFlungTable(flings: quick ? 3 : 20)
    }
    if let index = arguments.firstIndex(of: "--count"), index + 1 < arguments.count {
        // Each scene is kept until the counted region has ended: its views'
        // deinitialisers are not the frames' work.
        let measurement = arguments[index + 1]
        let operations: Int
        switch measurement {
        case "full":
            let scene = try CardsScene()
            operations = 10
            countedFullFrames(scene, operations)
            countedRegionEnded()
            withExtendedLifetime(scene) {}
        case "damaged":
            let scene = try CardsScene()
            operations = 1000
            countedDamagedFrames(scene, operations)
            countedRegionEnded()
            withExtendedLifetime(scene) {}
        case "scroll", "scroll-redrawn":
            let scene = try ListScene()
            scene.compositor.scrollsByCopy = measurement == "scroll"
            operations = 100
            countedScrollFrames(scene, operations)
            countedRegionEnded()
            withExtendedLifetime(scene) {}
        case "drag":
            let scene = DragScene(cards: try CardsScene())
            operations = 100
            countedDragSteps(scene, operations)
            countedRegionEnded()
            withExtendedLifetime(scene) {}
        case "table":
            // Frames of a deceleration, after a first fling that warms the
            // reuse queue and the glyph caches: 240 refreshes (2 s at 120 Hz).
            let scene = try TableScene()
            scene.verify()
            scene.fling()
            operations = 240
            let rowsBefore = scene.rowsBroughtIntoView
            countedTableFrames(scene, operations)
            countedRegionEnded()
            print("rows brought into view in the counted refreshes: \(scene.rowsBroughtIntoView - rowsBefore)")
        case "table-turn":
            // The same frames, the run loop's turn alone (nothing composited).
            let scene = try TableScene(composites: false)
            scene.verify()
            scene.fling()
            operations = 240
            let rowsBefore = scene.rowsBroughtIntoView
            let movedThroughout = countedTableTurns(scene, operations)
            countedRegionEnded()
            print("rows brought into view in the counted refreshes: \(scene.rowsBroughtIntoView - rowsBefore)")
            guard movedThroughout else { fail("table-turn: the table stopped before the counted frames ended") }
        case "animated":
            let scene = AnimatedCardsScene(cards: try CardsScene())
            operations = 10
            countedAnimatedFrames(scene, operations)
            countedRegionEnded()
            withExtendedLifetime(scene) {}
        case "fading":
            // The same with every card visibly translucent (AnimatedScenes.swift).
            let scene = AnimatedCardsScene(cards: try CardsScene(), visibleFade: true)
            operations = 10
            countedAnimatedFrames(scene, operations)
            countedRegionEnded()
            withExtendedLifetime(scene) {}
        case "animated-picture":
            // The picture an animated frame shows, drawn whole without the
            // animation's refresh, commit and damage: what the picture costs
            // (counted as countedFullFrames, which draws it).
            let scene = AnimatedCardsScene(cards: try CardsScene())
            _ = scene.frame()
            operations = 10
            countedFullFrames(scene.cards, operations)
            countedRegionEnded()
            withExtendedLifetime(scene) {}
        case "moving":
            let scene = OneMovingCardScene(cards: try CardsScene())
            operations = 1000
            let aroundTheMarker = countedMovingCardFrames(scene, operations)
            countedRegionEnded()
            withExtendedLifetime(scene) {}
            guard aroundTheMarker else {
                print("a frame of the moving marker drew more than the marker")
                exit(1)
            }
        case "push", "sheet", "flip":
            // One transition, every refresh until it ends.
            let scene = try TransitionScene()
            switch measurement {
            case "push": scene.startPush(); operations = TransitionScene.pushFrames
            case "sheet": scene.startSheet(); operations = TransitionScene.sheetFrames
            default: scene.startFlip(); operations = TransitionScene.flipFrames
            }
            countedTransitionFrames(scene, operations)
            countedRegionEnded()
            withExtendedLifetime(scene) {}
            guard scene.transitionEnded else { fail("\(measurement): the transition had not ended after \(operations) refreshes") }
        default:
            print("--count takes full, damaged, scroll, scroll-redrawn, drag, animated, fading, animated-picture, moving, push, sheet, flip, table or table-turn")
            exit(2)
        }
        print("counted \(measurement): \(operations) operations")
        return
    }

    if let index = arguments.firstIndex(of: "--table-frame"), index + 1 < arguments.count {
        // The flung table's last frame, built of copies and exposed strips.
        let table = try TableScene()
        table.verify()
        try writePNG(table.compositor, to: arguments[index + 1])
        return
    }

    if arguments.contains("--transition-phases") {
        try measureTransitionPhases(runs: quick ? 3 : 10)
        return
    }

    if let index = arguments.firstIndex(of: "--transition-frames"), index + 2 < arguments.count {
        // Every frame of one transition (push, sheet or flip) as PNGs in a
        // directory, to look at and to compare two builds pixel for pixel.
        let scene = try TransitionScene()
        let frames: Int
        switch arguments[index + 1] {
        case "push": scene.startPush(); frames = TransitionScene.pushFrames
        case "sheet": scene.startSheet(); frames = TransitionScene.sheetFrames
        case "flip": scene.startFlip(); frames = TransitionScene.flipFrames
        default: fail("--transition-frames takes push, sheet or flip, then a directory")
        }
        let directory = arguments[index + 2]
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for frame in 0..<frames {
            _ = scene.frame()
            try writePNG(scene.compositor, to: "\(directory)/\(arguments[index + 1])-\(frame).png")
        }
        return
    }

    if let index = arguments.firstIndex(of: "--frame"), index + 1 < arguments.count {
        // The cards scene's full frame as a PNG, to look at and to compare
        // two builds pixel for pixel.
        let cards = try CardsScene()
        cards.fullFrame()
        try writePNG(cards.compositor, to: arguments[index + 1])
        return
    }

    let cards = try CardsScene()
    // Check the scene before timing it: a card's colour, the white ground, the damage.
    let damage = cards.damagedFrame(0)
    guard damage == [CGRect(x: 500, y: 1200, width: 100, height: 100)] else {
        print("unexpected damage for the marker: \(damage)")
        exit(1)
    }
    let fullRuns = quick ? 15 : 60
    var full: [Double] = []
    for _ in 0..<fullRuns {
        let start = now()
        cards.fullFrame()
        full.append(now() - start)
    }
    let damagedRuns = quick ? 300 : 3000
    var damaged: [Double] = []
    for step in 0..<damagedRuns {
        let start = now()
        _ = cards.damagedFrame(step)
        damaged.append(now() - start)
    }

    let list = try ListScene()
    let scrollRuns = quick ? 30 : 200
    var scroll: [Double] = []
    for _ in 0..<scrollRuns {
        let start = now()
        list.scrollFrame()
        scroll.append(now() - start)
    }

    let drag = DragScene(cards: try CardsScene())
    // Check the drag before timing it: a step moves the card by 10 pt and
    // draws again where it was and where it is.
    let before = drag.card.frame
    let checked = drag.moveOneStep()
    let moved = drag.card.frame
    guard abs(moved.minX - before.minX) == 10, moved.minY == before.minY,
          checked.damage.contains(where: { $0.contains(before.union(moved)) }) else {
        print("unexpected drag step: the card went from \(before) to \(moved), damage \(checked.damage)")
        exit(1)
    }
    let dragRuns = quick ? 100 : 1000
    var dragSteps: [Double] = []
    for _ in 0..<dragRuns { dragSteps.append(drag.moveOneStep().seconds) }

    let animated = AnimatedCardsScene(cards: try CardsScene())
    // Check: the cards move (damage beyond the marker's rect), every frame.
    guard animated.frame().count > 0 else {
        print("an animated frame drew nothing")
        exit(1)
    }
    let animatedRuns = quick ? 15 : 60
    var animatedFrames: [Double] = []
    for _ in 0..<animatedRuns {
        let start = now()
        _ = animated.frame()
        animatedFrames.append(now() - start)
    }
    let fading = AnimatedCardsScene(cards: try CardsScene(), visibleFade: true)
    var fadingFrames: [Double] = []
    for _ in 0..<animatedRuns {
        let start = now()
        _ = fading.frame()
        fadingFrames.append(now() - start)
    }
    var animatedPictures: [Double] = []
    for _ in 0..<animatedRuns {
        let start = now()
        animated.cards.fullFrame()  // the picture of the last animated frame, drawn whole
        animatedPictures.append(now() - start)
    }
    let moving = OneMovingCardScene(cards: try CardsScene())
    let movingDamage = moving.frame()
    guard !movingDamage.isEmpty, movingDamage.allSatisfy({ $0.width <= 102 && $0.height <= 100 }) else {
        print("unexpected damage for the moving marker: \(movingDamage)")
        exit(1)
    }
    let movingRuns = quick ? 300 : 3000
    var movingFrames: [Double] = []
    for _ in 0..<movingRuns {
        let start = now()
        _ = moving.frame()
        movingFrames.append(now() - start)
    }

    // Transitions: every refresh of a push and of a sheet presented.
    let transitions = try TransitionScene()
    var pushFrames: [Double] = [], sheetFrames: [Double] = []
    var firstPushFrames: [Double] = [], firstSheetFrames: [Double] = []
    for _ in 0..<(quick ? 3 : 10) {
        for isPush in [true, false] {
            if isPush { transitions.startPush() } else { transitions.startSheet() }
            let count = isPush ? TransitionScene.pushFrames : TransitionScene.sheetFrames
            for index in 0..<count {
                let begin = now()
                _ = transitions.frame()
                let seconds = now() - begin
                if isPush { pushFrames.append(seconds) } else { sheetFrames.append(seconds) }
                if index == 0 { if isPush { firstPushFrames.append(seconds) } else { firstSheetFrames.append(seconds) } }
            }
            guard transitions.transitionEnded else { fail("a transition had not ended after \(count) refreshes") }
            transitions.reset()
        }
    }
    // A card's flip, after the others (the card is on the root screen).
    var flipFrames: [Double] = []
    for _ in 0..<(quick ? 3 : 10) {
        transitions.startFlip()
        for _ in 0..<TransitionScene.flipFrames {
            let begin = now()
            _ = transitions.frame()
            flipFrames.append(now() - begin)
        }
        guard transitions.transitionEnded else { fail("a flip had not ended after \(TransitionScene.flipFrames) refreshes") }
    }

    func ms(_ seconds: Double) -> String { String(format: "%.3f ms", seconds * 1000) }
    print("cards, full frame (1170×2532, 200 layers)      median \(ms(median(full)))   best \(ms(full.min()!))   aim ≤ 6 ms")
    print("cards, damaged frame (100×100 at 500,1200)     median \(ms(median(damaged)))   best \(ms(damaged.min()!))   aim ≤ 0.15 ms")
    print("list, 1,000 rows scrolling 10 pt per frame     median \(ms(median(scroll)))   best \(ms(scroll.min()!))")
    let sortedSteps = dragSteps.sorted()
    let p99 = sortedSteps[sortedSteps.count * 99 / 100]
    print("drag a card over the cards, touch to pixels    median \(ms(median(dragSteps)))   p99 \(ms(p99))   best \(ms(sortedSteps[0]))")
    print("cards, every card animating (refresh+frame)    median \(ms(median(animatedFrames)))   best \(ms(animatedFrames.min()!))   aim ≤ 1.2 × full")
    print("cards, that picture drawn whole, no refresh    median \(ms(median(animatedPictures)))   best \(ms(animatedPictures.min()!))")
    print("cards, every card moving, visibly fading       median \(ms(median(fadingFrames)))   best \(ms(fadingFrames.min()!))")
    print("cards, one card animating (refresh+frame)      median \(ms(median(movingFrames)))   best \(ms(movingFrames.min()!))   aim ≤ 2 × damaged")
    func percentile99(_ frames: [Double]) -> Double { frames.sorted()[frames.count * 99 / 100] }
    print("push, 390×844 @3x, each refresh+frame          median \(ms(median(pushFrames)))   p99 \(ms(percentile99(pushFrames)))   worst \(ms(pushFrames.max()!))   first frame median \(ms(median(firstPushFrames)))   (\(pushFrames.count) frames)")
    print("page sheet presented, each refresh+frame       median \(ms(median(sheetFrames)))   p99 \(ms(percentile99(sheetFrames)))   worst \(ms(sheetFrames.max()!))   first frame median \(ms(median(firstSheetFrames)))   (\(sheetFrames.count) frames)")
    print("card flip (300×400 pt), each refresh+frame     median \(ms(median(flipFrames)))   p99 \(ms(percentile99(flipFrames)))   worst \(ms(flipFrames.max()!))   (\(flipFrames.count) frames)")
    try measureFlungTable(flings: quick ? 3 : 20)
}

/// Each transition's frames by their number in the transition, over
/// `runs` transitions of each kind: the refresh and the composite apart
/// (median and worst), and the page faults (`--transition-phases`).
@MainActor
func measureTransitionPhases(runs: Int) throws {
    let scene = try TransitionScene()
    for kind in ["push", "sheet", "flip"] {
        let count = kind == "push" ? TransitionScene.pushFrames : kind == "sheet" ? TransitionScene.sheetFrames : TransitionScene.flipFrames
        var refresh = Array(repeating: [Double](), count: count), composite = refresh
        var faults = Array(repeating: [Int](), count: count)
        for _ in 0..<runs {
            switch kind {
            case "push": scene.startPush()
            case "sheet": scene.startSheet()
            default: scene.startFlip()
            }
            for index in 0..<count {
                let timed = scene.timedFrame()
                refresh[index].append(timed.refresh)
                composite[index].append(timed.composite)
                faults[index].append(timed.faults)
            }
            guard scene.transitionEnded else { fail("a \(kind) had not ended after \(count) refreshes") }
            scene.reset()
        }
        func ms(_ seconds: Double) -> String { String(format: "%6.2f", seconds * 1000) }
        print("\(kind): frame  refresh median/worst  composite median/worst (ms)  faults median/worst")
        for index in 0..<count {
            print("  \(index)\t\(ms(median(refresh[index]))) \(ms(refresh[index].max()!))   \(ms(median(composite[index]))) \(ms(composite[index].max()!))   \(faults[index].sorted()[runs / 2]) \(faults[index].max()!)")
        }
        let totals = zip(refresh.joined(), composite.joined()).map { $0 + $1 }.sorted()
        print("  all \(totals.count): median \(ms(totals[totals.count / 2]))  p99 \(ms(totals[totals.count * 99 / 100]))  worst \(ms(totals.last!))")
    }
}

/// The flung table (5. above): times `flings` flings' decelerations and prints the figures.
@MainActor
func measureFlungTable(flings: Int) throws {
    let table = try TableScene()
    table.verify()
    let tableTimes = table.measureFrames(flings: flings)
    let tableFrames = tableTimes.frame.map { Double($0) / 1e9 }.sorted()
    let tableTurns = tableTimes.turn.map { Double($0) / 1e9 }.sorted()
    let tableComposites = tableTimes.composite.map { Double($0) / 1e9 }.sorted()
    func ms(_ seconds: Double) -> String { String(format: "%.3f ms", seconds * 1000) }
    func percentile99(_ sorted: [Double]) -> Double { sorted[sorted.count * 99 / 100] }
    print("table, 10,000 rows flung at 120 Hz, CPU/frame  median \(ms(median(tableFrames)))   p99 \(ms(percentile99(tableFrames)))   (\(tableFrames.count) frames)   aim ≤ 2 ms")
    print("  of which the run loop's turn (motion, layout, reuse, text, commit)  median \(ms(median(tableTurns)))   p99 \(ms(percentile99(tableTurns)))")
    print("  and the compositor's damaged frame                                  median \(ms(median(tableComposites)))   p99 \(ms(percentile99(tableComposites)))")
    // The slowest 1 % of the composites: how much they drew, and whether they moved pixels.
    let slowest = tableTimes.composite.indices.sorted { tableTimes.composite[$0] > tableTimes.composite[$1] }
        .prefix(max(1, tableTimes.composite.count / 100))
    let drawn = slowest.map { tableTimes.drawnPixels[$0] }.sorted()
    print("  the slowest 1 % of those: \(slowest.count) frames drawing \(drawn.first!)–\(drawn.last!) pixels, \(slowest.filter { tableTimes.copied[$0] }.count) of them scrolled by copy, \(slowest.filter { tableTimes.offGrid[$0] }.count) with the offset off the pixel grid; all frames: \(tableTimes.offGrid.filter { $0 }.count) off the grid, \(tableTimes.copied.filter { $0 }.count) of \(tableTimes.copied.count) by copy, median \(tableTimes.drawnPixels.sorted()[tableTimes.drawnPixels.count / 2]) pixels drawn")
}

MainActor.assumeIsolated {
    do { try main() } catch { print("error: \(error)"); exit(1) }
}
