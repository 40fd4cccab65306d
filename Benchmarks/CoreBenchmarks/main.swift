// Core benchmarks: how long hit-testing, a whole tap and a pan take on two
// view trees built the same way. Run with `Benchmarks/run.sh` (release
// build); `--quick` does a short run; `Benchmarks/instruction-counts.sh`
// counts instructions and allocations with `--count` (see `runCounted`).
//
// The trees: a 1000×1000 pt root view whose every view splits its area into
// N strips, side by side at even depths and stacked at odd depths (depth 0 is
// the root), each child inset by 1 pt on every side within its strip, down
// to depth D. N=3, D=8 gives 9,841 views; N=10, D=2 gives 111. The root fills
// a visible key window of 1000×1000 at the screen origin.
//
// What is measured, each several times (best and median are reported), after
// checking that it does what it should:
// 1. `window.hitTest(_:with:)` at pre-generated random points: ns per call.
// 2. `TouchSynthesizer.tap(at:)`: the full input path (HID frame → input
//    port → run loop → event queue → sendEvent → touchesBegan/Ended) in
//    µs per tap (down and up).
// 3. A pan on the 9,841-view tree with a gesture recognizer on each of the
//    ten views of its hit path (`PanScene`): a touch down, 20 moves 8 ms
//    apart and the lift, through the synthesizer, with the arbitration
//    among the ten recognizers: µs per pan.
// 4. The same tap sent as two digitizer frames over a real Unix-domain
//    socket, running the run loop after each frame: µs per tap, kernel
//    round trips included.
// 5. A scroll view's deceleration (`ScrollBenchmark.swift`): µs of CPU per
//    60 Hz frame while a 1,000-row list coasts after a fling.

#if canImport(Glibc)
import Glibc
#endif
import HID
import UIKit

// MARK: Options

struct Options {
    var quick = false
    /// Only these measurements (for profiling one of them); all when empty.
    var only: Set<String> = []
    /// The measurement to repeat a fixed number of times, untimed, for
    /// counting its instructions (`Benchmarks/instruction-counts.sh`).
    var counted: String?

    static let measurements: Set<String> = ["hit", "tap", "pan", "socket", "scroll", "labels"]
    static let countedMeasurements: Set<String> = ["hit", "tap", "pan", "labels"]

    static let usage = """
        usage: openuikit-benchmarks [--quick] [--only hit|tap|pan|socket|scroll|labels[,…]]
               openuikit-benchmarks --count hit|tap|pan|labels
          --quick   a short run (fewer runs and iterations)
          --only    run only the listed measurements, e.g. under a profiler
          --count   repeat one measurement a fixed number of times, untimed,
                    inside a function of its own (countedHitTests, countedTaps,
                    countedPans, countedLabelFrames), for callgrind's --toggle-collect
        """

    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var index = 1
        while index < arguments.count {
            switch arguments[index] {
            case "--quick": options.quick = true
            case "--only" where index + 1 < arguments.count:
                index += 1
                options.only = Set(arguments[index].split(separator: ",").map(String.init))
                let unknown = options.only.subtracting(measurements)
                guard unknown.isEmpty, !options.only.isEmpty else {
                    print("unknown measurement \(unknown.sorted().joined(separator: ", "))\n\(usage)")
                    exit(2)
                }
            case "--count" where index + 1 < arguments.count:
                index += 1
                guard countedMeasurements.contains(arguments[index]) else {
                    print("--count takes one of \(countedMeasurements.sorted().joined(separator: ", ")), not \(arguments[index])\n\(usage)")
                    exit(2)
                }
                options.counted = arguments[index]
            case "-h", "--help":
                print(usage)
                exit(0)
            default:
                print("unknown argument \(arguments[index])\n\(usage)")
                exit(2)
            }
            index += 1
        }
        return options
    }

    func runs(_ measurement: String) -> Bool { only.isEmpty || only.contains(measurement) }

    /// Timed runs of each measurement; best and median are taken over them.
    var runCount: Int { quick ? 3 : 7 }
    /// Passes over the 100,000 points per hit-test run.
    var hitTestPasses: Int { quick ? 1 : 10 }
    var tapsPerRun: Int { quick ? 2_000 : 20_000 }
    var socketTapsPerRun: Int { quick ? 1_000 : 10_000 }
}

let options = Options.parse(CommandLine.arguments)

// MARK: Tools

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and the same sequence
/// on every machine, so every run tests the same points.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1), with 53 random bits.
    mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }
}

/// Nanoseconds of monotonic time.
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Nanoseconds of this thread's CPU time: what a measurement costs while
/// other processes take turns on the cores (their caches' effects aside).
func threadCPUNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

struct Samples {
    let values: [Double]

    var best: Double { values.min() ?? .nan }

    var median: Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// Runs `body` `count` times; each run returns its own figure.
func sample(_ count: Int, _ body: () -> Double) -> Samples {
    Samples(values: (0..<count).map { _ in body() })
}

/// Stops the program with a message: a benchmark whose result is wrong
/// measures nothing.
func fail(_ message: String) -> Never {
    print("openuikit-benchmarks: check failed: \(message)")
    exit(1)
}

// MARK: The tree

/// Every view of the trees: it handles the touches it receives (without
/// passing them up the chain) and counts them, so a tap ends on its hit view.
@MainActor
final class TapView: UIView {
    static var beganCount = 0
    static var endedCount = 0
    static var lastEndedView: ObjectIdentifier?

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        TapView.beganCount += 1
    }

    override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        TapView.endedCount += 1
        TapView.lastEndedView = ObjectIdentifier(self)
    }

    static func resetCounts() {
        beganCount = 0
        endedCount = 0
        lastEndedView = nil
    }
}

struct TreeShape {
    let strips: Int
    let depth: Int
    let expectedViews: Int

    var name: String { "N=\(strips), D=\(depth)" }
}

/// Fills `view` (at `depth`) with its strips, recursively; returns the
/// number of views made, and adds the area of each leaf to `leafArea`.
/// Each view's tag is its depth.
@MainActor
func fill(_ view: UIView, depth: Int, shape: TreeShape, leafArea: inout Double) -> Int {
    guard depth < shape.depth else {
        leafArea += Double(view.bounds.width * view.bounds.height)
        return 0
    }
    let size = view.bounds.size
    let n = CGFloat(shape.strips)
    var made = 0
    for index in 0..<shape.strips {
        let i = CGFloat(index)
        let strip = depth % 2 == 0
            ? CGRect(x: i * size.width / n, y: 0, width: size.width / n, height: size.height)
            : CGRect(x: 0, y: i * size.height / n, width: size.width, height: size.height / n)
        let child = TapView(frame: strip.insetBy(dx: 1, dy: 1))
        child.tag = depth + 1
        view.addSubview(child)
        made += 1 + fill(child, depth: depth + 1, shape: shape, leafArea: &leafArea)
    }
    return made
}

/// A fresh application with one visible key window holding the tree, and
/// the fraction of the window's area that the tree's leaves cover.
@MainActor
func makeWindow(_ shape: TreeShape) -> (window: UIWindow, leafCoverage: Double) {
    UIApplication.shared.resetForTesting()
    UIApplication.shared.diagnostics.handler = nil
    TapView.resetCounts()
    let side: CGFloat = 1000
    let window = UIWindow(frame: CGRect(x: 0, y: 0, width: side, height: side))
    let root = TapView(frame: CGRect(x: 0, y: 0, width: side, height: side))
    var leafArea = 0.0
    let count = 1 + fill(root, depth: 0, shape: shape, leafArea: &leafArea)
    guard count == shape.expectedViews else { fail("tree \(shape.name) has \(count) views, expected \(shape.expectedViews)") }
    window.addSubview(root)
    window.makeKeyAndVisible()
    guard UIApplication.shared.keyWindow === window, !window.isHidden else { fail("the window is not visible and key") }
    return (window, leafArea / Double(side * side))
}

// MARK: Measurements

struct HitTestResult {
    let nanosecondsPerCall: Samples
    let leafHits: Int
    let points: Int
    /// The share of the window the leaves cover: the expected share of leaf hits.
    let leafCoverage: Double
}

@MainActor
func measureHitTest(_ window: UIWindow, shape: TreeShape, leafCoverage: Double, points: [CGPoint]) -> HitTestResult {
    // Sanity: the hits that land on a leaf (a view at the maximum depth) must
    // be the share of the window the leaves cover, give or take chance (the
    // standard deviation is below 0.2% for 100,000 points); every hit must be
    // a view of the tree.
    var leafHits = 0
    for point in points {
        guard let hit = window.hitTest(point, with: nil) else { fail("no view hit at \(point)") }
        guard hit is TapView else { fail("the hit at \(point) is \(hit), not a view of the tree") }
        if hit.tag == shape.depth { leafHits += 1 }
    }
    let leafShare = Double(leafHits) / Double(points.count)
    guard abs(leafShare - leafCoverage) < 0.01 else {
        fail("\(leafHits) of \(points.count) hits are leaves, but the leaves cover \(leafCoverage * 100)% of the window")
    }

    var checksum: UInt = 0
    let calls = points.count * options.hitTestPasses
    let timed = sample(options.runCount) {
        var sum: UInt = 0
        let start = monotonicNanoseconds()
        for _ in 0..<options.hitTestPasses {
            for point in points {
                if let hit = window.hitTest(point, with: nil) { sum &+= UInt(bitPattern: ObjectIdentifier(hit)) }
            }
        }
        let elapsed = monotonicNanoseconds() - start
        checksum ^= sum
        return Double(elapsed) / Double(calls)
    }
    // The checksum is used, so the calls cannot be optimised away.
    if checksum == 42 { print("(checksum \(checksum))") }
    return HitTestResult(nanosecondsPerCall: timed, leafHits: leafHits, points: points.count, leafCoverage: leafCoverage)
}

/// Checks that each of the first `count` taps ended on the view that
/// `hitTest` returns for its point.
@MainActor
func verifyTaps(_ window: UIWindow, points: [CGPoint], count: Int, tap: (CGPoint) -> Void) {
    for point in points.prefix(count) {
        let expected = window.hitTest(point, with: nil).map(ObjectIdentifier.init)
        let before = TapView.endedCount
        tap(point)
        guard TapView.endedCount == before + 1, TapView.lastEndedView == expected else {
            fail("the tap at \(point) did not end on its hit-test view")
        }
    }
}

/// Times `tapsPerRun` taps per run, cycling through `points`; µs per tap.
/// Checks that every tap's began and ended reached a view exactly once.
@MainActor
func measureTaps(points: [CGPoint], tapsPerRun: Int, tap: (CGPoint) -> Void) -> Samples {
    var cursor = 0
    return sample(options.runCount) {
        TapView.resetCounts()
        let start = monotonicNanoseconds()
        for _ in 0..<tapsPerRun {
            tap(points[cursor])
            cursor += 1
            if cursor == points.count { cursor = 0 }
        }
        let elapsed = monotonicNanoseconds() - start
        guard TapView.beganCount == tapsPerRun, TapView.endedCount == tapsPerRun else {
            fail("\(tapsPerRun) taps, but \(TapView.beganCount) touchesBegan and \(TapView.endedCount) touchesEnded")
        }
        return Double(elapsed) / Double(tapsPerRun) / 1000
    }
}

@MainActor
func measureSynthesizedTaps(_ window: UIWindow, points: [CGPoint]) -> Samples {
    let synthesizer = TouchSynthesizer(window: window)
    verifyTaps(window, points: points, count: 1_000) { synthesizer.tap(at: $0) }
    return measureTaps(points: points, tapsPerRun: options.tapsPerRun) { synthesizer.tap(at: $0) }
}

@MainActor
func measureSocketTaps(_ window: UIWindow, points: [CGPoint]) -> Samples {
    let application = UIApplication.shared
    let sender: HIDSocket
    do {
        sender = try application.inputPort.openSocket()
    } catch {
        fail("cannot open a socket to the input port: \(error)")
    }
    var finger: UInt32 = 1
    func send(_ phase: DigitizerContact.Phase, _ point: CGPoint) {
        // The window is at the screen origin: window points are screen points.
        let contact = DigitizerContact(identifier: finger, phase: phase, x: point.x, y: point.y)
        do {
            try sender.send(.digitizer(DigitizerFrame(timestamp: application.runLoop.clock.now, contacts: [contact])))
        } catch {
            fail("sending to the input port failed: \(error)")
        }
        application.runLoop.runUntilIdle()
    }
    let tap = { (point: CGPoint) in
        send(.began, point)
        send(.ended, point)
        finger &+= 1
    }
    verifyTaps(window, points: points, count: 1_000, tap: tap)
    let result = measureTaps(points: points, tapsPerRun: options.socketTapsPerRun, tap: tap)
    sender.close()
    return result
}

/// A pan on the 9,841-view tree with ten recognizers on the hit path: the
/// hit leaf, its eight ancestors and the window each carry one (a pan on the
/// leaf, which wins; taps, long presses, swipes and pans above it, which all
/// take part in arbitration and are failed or excluded). One gesture is a
/// touch down, 20 moves of 4 pt 8 ms apart, and the lift.
@MainActor
final class PanScene {
    /// Each gesture: began at the third move (12 pt, past the 10 pt
    /// hysteresis), a change for each of the 17 later moves, ended.
    static let actionsPerPan = 19

    private let start = CGPoint(x: 500.5, y: 500.5)
    private let path: [UIView]
    private let synthesizer: TouchSynthesizer
    private let sentActions = ActionCounter()
    /// Actions the leaf's pan recognizer has sent.
    var actions: Int {
        get { sentActions.count }
        set { sentActions.count = newValue }
    }

    init(_ window: UIWindow) {
        guard let leaf = window.hitTest(start, with: nil) else { fail("no view at \(start)") }
        var path: [UIView] = []
        var view: UIView? = leaf
        while let current = view { path.append(current); view = current.superview }
        guard path.count == 10 else { fail("the hit path has \(path.count) views, expected 10") }
        self.path = path
        synthesizer = TouchSynthesizer(window: window)
        let winner = UIPanGestureRecognizer { [sentActions] _ in sentActions.count += 1 }
        leaf.addGestureRecognizer(winner)
        for (index, ancestor) in path.dropFirst().enumerated() {
            let recognizer: UIGestureRecognizer
            switch index % 4 {
            case 0: recognizer = UITapGestureRecognizer()
            case 1: recognizer = UILongPressGestureRecognizer()
            case 2: recognizer = UISwipeGestureRecognizer()
            default: recognizer = UIPanGestureRecognizer()
            }
            ancestor.addGestureRecognizer(recognizer)
        }
        pan()
        guard actions == Self.actionsPerPan else { fail("a pan sent \(actions) actions, expected \(Self.actionsPerPan)") }
    }

    func pan() {
        let finger = synthesizer.touchDown(at: start)
        for step in 1...20 {
            synthesizer.advance(by: 0.008)
            synthesizer.touchMove(finger, to: CGPoint(x: start.x + CGFloat(step) * 4, y: start.y))
        }
        synthesizer.touchUp(finger)
    }

    /// Takes the recognizers off the tree: the measurements after a pan's
    /// expect a tree without them.
    func removeRecognizers() {
        for view in path { view.gestureRecognizers = nil }
    }
}

/// What the pan recognizer's action counts: a box of its own, so that the
/// recognizer does not keep the scene alive.
@MainActor
final class ActionCounter {
    var count = 0
}

/// µs per pan gesture (see ``PanScene``).
@MainActor
func measurePans(_ window: UIWindow) -> Samples {
    let scene = PanScene(window)
    let gestures = options.quick ? 200 : 1_000
    let result = sample(options.runCount) {
        scene.actions = 0
        let begin = monotonicNanoseconds()
        for _ in 0..<gestures { scene.pan() }
        let elapsed = monotonicNanoseconds() - begin
        guard scene.actions == PanScene.actionsPerPan * gestures else { fail("\(gestures) pans sent \(scene.actions) actions") }
        return Double(elapsed) / Double(gestures) / 1000
    }
    scene.removeRecognizers()
    return result
}

// MARK: Counted runs

/// Operations in each counted run: enough that one operation's figure does
/// not depend on rounding, few enough that callgrind takes seconds.
enum CountedOperations {
    static let hitTests = 10_000
    static let taps = 200
    static let pans = 20
    /// Frames of the labels scene, with warm glyph caches.
    static let labelFrames = 20
}

// Each counted function is all that callgrind collects when it is given
// `--toggle-collect='*<name>*'`: it must call no other function whose name
// contains its own, and holds no closure (a closure's symbol would contain it).
// Callgrind's call counts ignore the toggle, so allocations are counted
// between two dumps instead: one before the counted function, one before
// `countedRegionEnded`, which is called right after it.

@inline(never)
func countedRegionEnded() {
    // Something the optimiser cannot remove, so that the function is called.
    if CommandLine.arguments.isEmpty { print("") }
}

@inline(never) @MainActor
func countedHitTests(_ window: UIWindow, _ points: [CGPoint]) -> UInt {
    var checksum: UInt = 0
    for index in 0..<CountedOperations.hitTests {
        if let hit = window.hitTest(points[index], with: nil) { checksum &+= UInt(bitPattern: ObjectIdentifier(hit)) }
    }
    return checksum
}

@inline(never) @MainActor
func countedTaps(_ synthesizer: TouchSynthesizer, _ points: [CGPoint]) {
    for index in 0..<CountedOperations.taps { synthesizer.tap(at: points[index]) }
}

@inline(never) @MainActor
func countedPans(_ scene: PanScene) {
    for _ in 0..<CountedOperations.pans { scene.pan() }
}

/// Runs `measurement` on the 9,841-view tree: a warm-up outside the counted
/// function (first calls fill caches of the runtime), then the counted
/// function, then a check that it did what it should. Prints the number of
/// operations counted, which `Benchmarks/instruction-counts.sh` divides by.
@MainActor
func runCounted(_ measurement: String) {
    let (window, _) = makeWindow(shapes[0])
    let operations: Int
    switch measurement {
    case "hit":
        var warmUp: UInt = 0
        for point in points.suffix(1_000) { if window.hitTest(point, with: nil) != nil { warmUp &+= 1 } }
        let checksum = countedHitTests(window, points)
        countedRegionEnded()
        if checksum == 42 || warmUp == 0 { print("(checksum \(checksum))") }
        operations = CountedOperations.hitTests
    case "tap":
        let synthesizer = TouchSynthesizer(window: window)
        verifyTaps(window, points: Array(points.suffix(100)), count: 100) { synthesizer.tap(at: $0) }
        TapView.resetCounts()
        countedTaps(synthesizer, points)
        countedRegionEnded()
        guard TapView.beganCount == CountedOperations.taps, TapView.endedCount == CountedOperations.taps else {
            fail("\(CountedOperations.taps) counted taps, but \(TapView.beganCount) touchesBegan and \(TapView.endedCount) touchesEnded")
        }
        operations = CountedOperations.taps
    default:
        let scene = PanScene(window)
        scene.actions = 0
        countedPans(scene)
        countedRegionEnded()
        guard scene.actions == PanScene.actionsPerPan * CountedOperations.pans else {
            fail("\(CountedOperations.pans) counted pans sent \(scene.actions) actions")
        }
        operations = CountedOperations.pans
    }
    let problems = UIApplication.shared.diagnostics.entries
    if !problems.isEmpty { fail("the application reported \(problems.count) problems, first: \(problems[0])") }
    print("counted \(measurement): \(operations) operations")
}

// MARK: The run

struct TreeResult {
    let shape: TreeShape
    var hitTest: HitTestResult?
    var tap: Samples?
    var socketTap: Samples?
    var pan: Samples?
}

let shapes = [
    TreeShape(strips: 3, depth: 8, expectedViews: 9_841),
    TreeShape(strips: 10, depth: 2, expectedViews: 111),
]

var generator = SplitMix64(seed: 0x5EED_0F_0BE4_11C5)
let points = (0..<100_000).map { _ in
    CGPoint(x: generator.nextUnit() * 1000, y: generator.nextUnit() * 1000)
}

if let counted = options.counted {
    if counted == "labels" { runCountedLabels() } else { runCounted(counted) }
    exit(0)
}

print("OpenUIKit core benchmarks\(options.quick ? " (quick)" : ""): \(options.runCount) runs each, best and median")
// Other work on the machine inflates every figure (the medians most).
if let loadAverage = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8).split(separator: " ").first,
   let load = Double(loadAverage), load >= 0.5 {
    print("  note: the load average is \(loadAverage) (other processes are running); figures may be high")
}
print("  hit test: \(options.hitTestPasses * points.count) calls per run; "
    + "tap: \(options.tapsPerRun) per run; socket tap: \(options.socketTapsPerRun) per run")

var results: [TreeResult] = []
for shape in shapes {
    let (window, leafCoverage) = makeWindow(shape)
    var result = TreeResult(shape: shape)
    if options.runs("hit") { result.hitTest = measureHitTest(window, shape: shape, leafCoverage: leafCoverage, points: points) }
    if options.runs("tap") { result.tap = measureSynthesizedTaps(window, points: points) }
    if options.runs("pan") && shape.expectedViews == 9_841 { result.pan = measurePans(window) }
    // Last: once a socket is open, every run loop pass also reads it.
    if options.runs("socket") { result.socketTap = measureSocketTaps(window, points: points) }
    let problems = UIApplication.shared.diagnostics.entries
    if !problems.isEmpty { fail("the application reported \(problems.count) problems, first: \(problems[0])") }
    results.append(result)
}
// The scroll view's deceleration, on a list of its own (ScrollBenchmark.swift).
let scrollFrame = options.runs("scroll") ? measureScrollDeceleration() : nil

// MARK: The table

func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return right ? padding + text : text + padding
}

func format(_ value: Double, _ decimals: Int) -> String {
    String(format: "%.\(decimals)f", value)
}

/// The targets, which apply to the 9,841-view tree only. The hit test has
/// none: its earlier 110 ns aim is retired (docs/performance.md). No peer's
/// figure is printed: one from another run, on another day, would not be
/// comparable with the live figures beside it.
func target(_ shape: TreeShape, _ measurement: String) -> Double? {
    switch (shape.expectedViews, measurement) {
    case (9_841, "tap"): 2
    case (9_841, "pan"): 20
    default: nil
    }
}

let columns = [22, 26, 10, 10, 9, 6]
let header = ["tree", "measurement", "best", "median", "target", "meets"]
print("")
print(zip(header, columns).enumerated().map { pad($1.0, $1.1, right: $0 >= 2) }.joined(separator: " "))
print(String(repeating: "-", count: columns.reduce(0, +) + columns.count - 1))
for result in results {
    let tree = "\(result.shape.expectedViews) views (\(result.shape.name))"
    var rows: [(String, Samples, Int, Double?)] = []
    if let hit = result.hitTest { rows.append(("hit test, ns/call", hit.nanosecondsPerCall, 1, target(result.shape, "hit"))) }
    if let tap = result.tap { rows.append(("tap (synthesizer), µs", tap, 2, target(result.shape, "tap"))) }
    if let pan = result.pan { rows.append(("pan, 10 recognizers, µs", pan, 2, target(result.shape, "pan"))) }
    if let socket = result.socketTap { rows.append(("tap (Unix socket), µs", socket, 2, nil)) }
    for (index, row) in rows.enumerated() {
        let (name, samples, decimals, aim) = row
        let meets = aim.map { samples.best <= $0 ? "yes" : "NO" } ?? "-"
        let cells = [
            index == 0 ? tree : "", name,
            format(samples.best, decimals), format(samples.median, decimals),
            aim.map { "≤ " + format($0, decimals == 1 ? 0 : 1) } ?? "-",
            meets,
        ]
        print(zip(cells, columns).enumerated().map { pad($1.0, $1.1, right: $0 >= 2) }.joined(separator: " "))
    }
}
if let scrollFrame {
    let meets = scrollFrame.best <= 50 ? "yes" : "NO"
    let cells = ["1,000-row list", "scroll frame (CPU), µs", format(scrollFrame.best, 2), format(scrollFrame.median, 2), "≤ 50.0", meets]
    print(zip(cells, columns).enumerated().map { pad($1.0, $1.1, right: $0 >= 2) }.joined(separator: " "))
}
print("")
for result in results {
    if let hit = result.hitTest {
        let percent = 100 * Double(hit.leafHits) / Double(hit.points)
        print("\(result.shape.expectedViews) views: \(hit.leafHits) of \(hit.points) hit-test points land on a leaf "
            + "(depth \(result.shape.depth)), \(format(percent, 1))%; the leaves cover \(format(hit.leafCoverage * 100, 1))% "
            + "of the window (the 1 pt insets take the rest)")
    }
}
print("Targets apply to the 9,841-view tree.")
if options.runs("pan") {
    print("A pan is a touch down, 20 moves 8 ms apart and the lift, with a recognizer on each of the 10 views of its hit path.")
}
if scrollFrame != nil {
    print("A scroll frame is one 60 Hz step of a 1,000-row list decelerating after a fling, in thread CPU time.")
}
if options.runs("socket") {
    print("Socket taps include two write/read round trips through the kernel per tap; there is no target for them.")
}
if options.runs("labels") {
    let labels = measureLabels(runs: options.runCount, framesPerRun: options.quick ? 20 : 100)
    print("")
    print("Labels scene (40 one-line labels, 17 pt, lay out and draw), ms per frame, elapsed (thread CPU):")
    print("  warm glyph caches: best \(format(labels.warm.best, 3)) (\(format(labels.warmCPU.best, 3))), "
        + "median \(format(labels.warm.median, 3)) (\(format(labels.warmCPU.median, 3))) (target ≤ 0.6)")
    print("  cold glyph caches: best \(format(labels.cold.best, 3)) (\(format(labels.coldCPU.best, 3))), "
        + "median \(format(labels.cold.median, 3)) (\(format(labels.coldCPU.median, 3)))")
}
