#if canImport(Glibc)
import Glibc
#endif
@_spi(Benchmarks) import UIKit

/// The application side of the event server's latency benchmark: one view
/// over the whole screen measures, in each touch method, how long ago the
/// server read the event (the read time its message carries) and how long
/// ago it was handed to the server (the benchmark stamps each frame as it
/// sends it, a socket hop earlier), and checks the frame numbers the
/// benchmark puts in each touch's force for frames lost or out of order.
/// When the finger lifts it prints one line of results.
///
/// With `--drag` a dot follows the finger, so every event changes the
/// screen, and a second line gives touch to photon: from the server's read
/// of an event to the refresh that presented the first frame showing it.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        let window = UIWindow(frame: UIScreen.main.bounds)
        if CommandLine.arguments.contains("--fling") {
            window.addSubview(FlingList(frame: window.bounds))
        } else {
            window.addSubview(LatencyView(frame: window.bounds))
        }
        window.isHidden = false
        self.window = window
        return true
    }

    func applicationDidBecomeActive(_ application: UIApplication) { printLine("ready") }
}

final class LatencyView: UIView {
    /// From the server's read to the touch method.
    private var latencies: [Double] = []
    /// From the benchmark's send to the touch method.
    private var sendLatencies: [Double] = []
    /// Events that arrived without the server's read time.
    private var unstamped = 0
    private var expected = 0
    private var lost = 0
    private var reordered = 0
    private var cpuAtStart = 0.0
    /// Follows the finger with `--drag`.
    private let dot: UIView? = CommandLine.arguments.contains("--drag") ? UIView(frame: CGRect(x: 0, y: 0, width: 20, height: 20)) : nil

    override init(frame: CGRect) {
        super.init(frame: frame)
        latencies.reserveCapacity(1_100_000)
        sendLatencies.reserveCapacity(1_100_000)
        if let dot {
            dot.backgroundColor = .red
            addSubview(dot)
        }
    }

    required init?(coder: NSCoder) { nil }

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        latencies.removeAll(keepingCapacity: true)
        sendLatencies.removeAll(keepingCapacity: true)
        unstamped = 0
        expected = 0
        lost = 0
        reordered = 0
        cpuAtStart = processCPUSeconds()
        UIApplication.shared.startRecordingTouchToPhoton()
        record(touches)
    }

    override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) { record(touches, coalescedIn: event) }

    override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        record(touches)
        let cpu = processCPUSeconds() - cpuAtStart
        let sorted = latencies.sorted()
        let sortedSends = sendLatencies.sorted()
        func percentile(_ values: [Double], _ p: Double) -> Double {
            values.isEmpty ? .nan : values[min(values.count - 1, Int(Double(values.count) * p))] * 1e6
        }
        printLine(
            "result events=\(sortedSends.count) p50=\(percentile(sorted, 0.5)) p99=\(percentile(sorted, 0.99)) max=\(percentile(sorted, 1))"
                + " send_p50=\(percentile(sortedSends, 0.5)) send_p99=\(percentile(sortedSends, 0.99)) send_max=\(percentile(sortedSends, 1))"
                + " unstamped=\(unstamped) lost=\(lost) reordered=\(reordered) cpu_us_per_event=\(cpu * 1e6 / Double(max(1, sortedSends.count)))")
        guard dot != nil else { return }
        // The last frame's presentation comes a refresh or two after the lift.
        Task { @MainActor in
            try? await Task.sleep(for: .milliseconds(100))
            let photons = UIApplication.shared.touchToPhotonLatencies.sorted()
            let leads = UIApplication.shared.frameSignalLeads.sorted()
            // From the signal's arrival to the commit, and the margin the commit left before its refresh.
            let records = UIApplication.shared.frameRecords
            let draws = records.map { $0.commitTime - $0.signalArrival }.sorted()
            let margins = records.map { $0.refreshTime - $0.commitTime }.sorted()
            let late = records.filter { record in record.presentedRefresh.map { $0 > record.refresh } ?? false }.count
            let tail = SlowFrames(records, atLeast: percentile(photons, 0.99) / 1e6)
            printLine("photon frames=\(photons.count) p50=\(percentile(photons, 0.5)) p99=\(percentile(photons, 0.99)) max=\(percentile(photons, 1))"
                + " lead50=\(percentile(leads, 0.5)) lead1=\(percentile(leads, 0.01)) lead99=\(percentile(leads, 0.99))"
                + " draw50=\(percentile(draws, 0.5)) draw99=\(percentile(draws, 0.99)) margin1=\(percentile(margins, 0.01)) late=\(late)"
                + " tail=\(tail.frames) tail_late=\(tail.late) tail_after_gap=\(tail.afterGap)"
                + " tail_since_signal50=\(percentile(tail.sinceEarlierSignal, 0.5)) tail_earlier_lead50=\(percentile(tail.earlierLeads, 0.5))"
                + " tail_before_signal50=\(percentile(tail.readBeforeEarlierSignal, 0.5))"
                + " tail_before_signal_max=\(percentile(tail.readBeforeEarlierSignal, 1))")
        }
    }

    /// Moves come once per frame, with the frame's samples coalesced: each
    /// sample counts as the event it came in.
    private func record(_ touches: Set<UITouch>, coalescedIn event: UIEvent? = nil) {
        guard let touch = touches.first else { return }
        dot?.center = touch.location(in: self)
        let now = monotonicNow()
        if let readTime = UIApplication.shared.eventServerReadTime {
            latencies.append(now - readTime)
        } else {
            unstamped += 1
        }
        for sample in event?.coalescedTouches(for: touch) ?? [touch] {
            sendLatencies.append(now - sample.timestamp)
            let index = Int(sample.force)
            if index == expected {
                expected += 1
            } else if index > expected {
                lost += index - expected
                expected = index + 1
            } else {
                reordered += 1
            }
        }
    }
}

/// Where the slowest frames' touch to photon went (at least `seconds`):
/// a frame shows the events read since the signal of the frame before it
/// reached the application, so its oldest event waited from that signal
/// to its own refresh (an interval and the earlier signal's lead), plus
/// however long before that signal's arrival it was read, unless the
/// frame was late (shown after its refresh) or came after a refresh with
/// no frame (a gap).
struct SlowFrames {
    var frames = 0, late = 0, afterGap = 0
    /// From the earlier frame's signal arrival to this frame's refresh.
    var sinceEarlierSignal: [Double] = []
    /// How long before the earlier frame's signal arrived the oldest event was read.
    var readBeforeEarlierSignal: [Double] = []
    /// How long before its refresh the earlier frame's signal arrived.
    var earlierLeads: [Double] = []

    init(_ records: [FrameRecord], atLeast seconds: Double) {
        guard records.count > 1 else { return }
        let interval = (records[records.count - 1].refreshTime - records[0].refreshTime) / Double(records[records.count - 1].refresh - records[0].refresh)
        for (earlier, record) in zip(records, records.dropFirst()) {
            guard let shown = record.presentedRefresh, let read = record.oldestEventReadTime else { continue }
            let presentedTime = record.refreshTime + Double(shown - record.refresh) * interval
            guard presentedTime - read >= seconds else { continue }
            frames += 1
            if shown > record.refresh { late += 1 }
            if earlier.refresh + 1 < record.refresh { afterGap += 1 }
            sinceEarlierSignal.append(presentedTime - earlier.signalArrival)
            readBeforeEarlierSignal.append(earlier.signalArrival - read)
            earlierLeads.append(earlier.refreshTime - earlier.signalArrival)
        }
        sinceEarlierSignal.sort()
        readBeforeEarlierSignal.sort()
        earlierLeads.sort()
    }
}

func monotonicNow() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

func printLine(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
}

/// `--fling`: a 1,000-row table view. Each fling's deceleration is watched
/// refresh by refresh: when it stops, the app prints how many refreshes
/// passed while it moved, how many of them presented no new frame, and why
/// (`RefreshesWithoutANewFrame`, one reason each): missed, because the
/// frame drawn for it came after it (`late`) or the app was not signalled
/// for it (`unsignalled`: it asked too late); or not missed, with nothing
/// new to show (`unchanged`: as the content slows down it moves less than
/// a pixel in some refreshes, and its offset is shown on the pixel grid, as
/// UIKit's is). Then where the frames' time went, over every fling so far,
/// in microseconds: from the signal's arrival to drawing (the turn:
/// display links, layout, commit), drawing, copying pixels into the shared
/// buffers, the lead the signal arrived with, and the margin left between
/// the commit and the refresh (negative: late); for all frames and for the
/// late ones; the slow turns (over 2 ms): how long, how much of it the
/// main thread used the processor, its page faults, waits and preemptions;
/// and each refresh missed, with its place in the fling.
final class FlingList: UITableView, UITableViewDataSource, UITableViewDelegate {
    private var turns: [Double] = [], renders: [Double] = [], leads: [Double] = [], margins: [Double] = []
    private var lateTurns: [Double] = [], lateRenders: [Double] = [], lateLeads: [Double] = []
    private var moved = 0, lateMoved = 0
    /// The slowest draws: how long, pixels drawn or moved, pixels copied, whether the frame moved buffers.
    private var draws: [(seconds: Double, damaged: Int, copied: Int, moved: Bool)] = []
    /// Turns over 2 ms, from the signal's arrival to drawing: how long, and the main thread's use meanwhile.
    private var slowTurns: [(seconds: Double, usage: ThreadUsage)] = []
    /// Each refresh missed so far: `u` (not signalled) or `l` (late), its place in its fling's
    /// refreshes and, after `@`, its sequence number (the refresh falls on that many intervals of
    /// `CLOCK_MONOTONIC`: a trace of the run places it), and for a late one the lead its signal
    /// came with, the margin its commit left and how many refreshes later it was shown (`d`:
    /// discarded), microseconds.
    private var misses: [String] = []

    override init(frame: CGRect, style: UITableView.Style) {
        super.init(frame: frame, style: style)
        register(UITableViewCell.self, forCellReuseIdentifier: "row")
        dataSource = self
        delegate = self
    }

    convenience init(frame: CGRect) { self.init(frame: frame, style: .plain) }

    required init?(coder: NSCoder) { nil }

    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 1000 }

    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
        cell.textLabel?.text = "Row \(indexPath.row + 1)"
        return cell
    }

    func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool) {
        if decelerate { UIApplication.shared.startRecordingTouchToPhoton() }
        else { printLine("fling refreshes=0 dropped=0 offset=\(Int(scrollView.contentOffset.y)) (it did not decelerate)") }
    }

    func scrollViewDidEndDecelerating(_ scrollView: UIScrollView) {
        let application = UIApplication.shared
        let presented = application.presentedRefreshes
        guard let first = presented.first, let last = presented.last else { return printLine("fling refreshes=0 dropped=0 offset=\(Int(scrollView.contentOffset.y))") }
        let refreshes = Int(last - first) + 1
        let records = application.frameRecords
        for record in records {
            let isLate = record.presentedRefresh.map { $0 > record.refresh } ?? true
            let times = (turn: record.drawStart - record.signalArrival, render: record.renderSeconds, lead: record.refreshTime - record.signalArrival)
            turns.append(times.turn); renders.append(times.render); leads.append(times.lead)
            margins.append(record.refreshTime - record.commitTime)
            if times.turn > 0.002 { slowTurns.append((times.turn, record.turnUsage)) }
            draws.append((record.renderSeconds, record.damagedPixels, record.copiedPixels, record.movedBuffer))
            if record.movedBuffer { moved += 1 }
            if isLate {
                lateTurns.append(times.turn); lateRenders.append(times.render); lateLeads.append(times.lead)
                if record.movedBuffer { lateMoved += 1 }
            }
        }
        let without = application.refreshesWithoutANewFrame
        let shown = Set(presented), signalledOnes = Set(application.signalledRefreshes)
        for refresh in first...last where !shown.contains(refresh) {
            if !signalledOnes.contains(refresh) {
                misses.append("u\(refresh - first)@\(refresh)")
            } else if let record = records.last(where: { $0.refresh == refresh }) {
                let later = record.presentedRefresh.map { "+\($0 - refresh)" } ?? "d"
                misses.append("l\(refresh - first)@\(refresh)/\(Int((record.refreshTime - record.signalArrival) * 1e6))/\(Int((record.refreshTime - record.commitTime) * 1e6))/\(later)")
            }
        }
        func micros(_ values: [Double], _ p: Double) -> Int {
            let sorted = values.sorted()
            return sorted.isEmpty ? 0 : Int(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1e6)
        }
        printLine("fling refreshes=\(refreshes) dropped=\(without.count) late=\(without.late) unsignalled=\(without.unsignalled)"
            + " unchanged=\(without.unchanged) offset=\(Int(scrollView.contentOffset.y))"
            + " turn_p50_us=\(micros(turns, 0.5)) turn_p99_us=\(micros(turns, 0.99)) render_p50_us=\(micros(renders, 0.5))"
            + " render_p99_us=\(micros(renders, 0.99)) moved_buffer=\(moved)"
            + " lead_p50_us=\(micros(leads, 0.5)) lead_p1_us=\(micros(leads, 0.01))"
            + " margin_p50_us=\(micros(margins, 0.5)) margin_p1_us=\(micros(margins, 0.01)) late_frames=\(lateTurns.count)"
            + " late_turn_p50_us=\(micros(lateTurns, 0.5)) late_render_p50_us=\(micros(lateRenders, 0.5))"
            + " late_moved_buffer=\(lateMoved) late_lead_p50_us=\(micros(lateLeads, 0.5))"
            + " slowest_draws=\(slowestDraws) slow_turns=\(slowTurnsText) misses=\(misses.joined(separator: ","))")
    }

    /// The turns over 2 ms so far: microseconds/processor microseconds/page faults/waits/preemptions.
    private var slowTurnsText: String {
        slowTurns.map { turn in
            "\(Int(turn.seconds * 1e6))/\(Int(turn.usage.processorSeconds * 1e6))/\(turn.usage.pageFaults)/\(turn.usage.waits)/\(turn.usage.preemptions)"
        }.joined(separator: ",")
    }

    /// The slowest 1 % of draws so far: microseconds/pixels drawn or moved/pixels copied, M when the frame moved buffers.
    private var slowestDraws: String {
        let slowest = draws.sorted { $0.seconds > $1.seconds }.prefix(max(1, draws.count / 100))
        return slowest.map { "\(Int($0.seconds * 1e6))/\($0.damaged)/\($0.copied)\($0.moved ? "M" : "")" }.joined(separator: ",")
    }
}
