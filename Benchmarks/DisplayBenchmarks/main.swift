#if canImport(Glibc)
import Glibc
#endif
import EventServer
import HID

/// What an output's `show()` costs: an iPhone-sized frame (390 × 844
/// points at 3×, 1170 × 2532 pixels) shown whole and as one small damaged
/// rectangle (a 44-point button, 132 × 132 pixels), in an X window at scale
/// 1 (MIT-SHM, and XPutImage) and converted for a frame buffer of the
/// frame's own size; and a flung list's frame (the list between a 47-point
/// bar above and a 47-point bar below, 2,250 rows, scrolled up 14 points:
/// 42 rows) three ways: the list as damage (what an output did before
/// frames passed their scrolls), its scroll passed with the 42 rows
/// brought into view (the window and the frame buffer move their own
/// copy), and scrolled by 41 rows (not whole points: in the 1× window every
/// average changes, so the list is converted; the frame buffer at the
/// frame's size moves it). Each sample is one `show()`, from the call to its
/// return (the frame read, the put sent), in wall time and in the thread's
/// CPU time (which a loaded machine does not inflate); between samples the
/// benchmark waits until the X server has drawn it, untimed.
///
///     openuikit-display-benchmark [--samples N]     (needs DISPLAY: Benchmarks/display.sh starts Xvfb)

var samples = 300
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    if argument == "--samples", let value = arguments.popFirst().flatMap(Int.init), value > 0 {
        samples = value
    } else {
        print("usage: openuikit-display-benchmark [--samples N]")
        exit(2)
    }
}

func now(_ clock: clockid_t = CLOCK_MONOTONIC) -> Double {
    var time = timespec()
    clock_gettime(clock, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Runs `body` once; its wall and CPU seconds.
func measure(_ body: () -> Void) -> (wall: Double, cpu: Double) {
    let start = now(), startCPU = now(CLOCK_THREAD_CPUTIME_ID)
    body()
    return (now() - start, now(CLOCK_THREAD_CPUTIME_ID) - startCPU)
}

let screen = Screen.standard
let width = Int(screen.width * screen.scale), height = Int(screen.height * screen.scale)
var pixels = [UInt8](repeating: 0, count: width * height * 4)
for index in stride(from: 0, to: pixels.count, by: 4) {
    pixels[index] = UInt8(truncatingIfNeeded: index / 4)
    pixels[index + 1] = UInt8(truncatingIfNeeded: index / 4 / width)
    pixels[index + 2] = 128
    pixels[index + 3] = 255
}
let whole = ServerMessage.PixelRect(x: 0, y: 0, width: UInt32(width), height: UInt32(height))
let button = ServerMessage.PixelRect(x: 300, y: 1200, width: 132, height: 132)
let list = ServerMessage.PixelRect(x: 0, y: 141, width: UInt32(width), height: 2250)
/// A flung list's frame: its scroll and damage.
typealias Change = (scrolls: [ServerMessage.FrameScroll], damage: [ServerMessage.PixelRect])
func fling(by rows: Int) -> Change {
    ([.init(rect: list, dx: 0, dy: Int32(-rows))], [.init(x: 0, y: list.y + list.height - UInt32(rows), width: list.width, height: UInt32(rows))])
}
let changes: [(String, Change)] = [
    ("whole frame", ([], [whole])),
    ("132x132 damage", ([], [button])),
    ("fling frame, the list as damage", ([], [list])),
    ("fling frame, scroll of 42 rows passed", fling(by: 42)),
    ("fling frame, scroll of 41 rows passed", fling(by: 41)),
]

func report(_ name: String, _ times: [(wall: Double, cpu: Double)]) {
    func microseconds(_ values: [Double], _ quantile: Double) -> String {
        let sorted = values.sorted()
        return String(Int((sorted[min(Int(Double(sorted.count) * quantile), sorted.count - 1)] * 1e6).rounded()))
    }
    let wall = times.map(\.wall), cpu = times.map(\.cpu)
    print("\(name): wall p50 \(microseconds(wall, 0.5)) µs, p99 \(microseconds(wall, 0.99)) µs; CPU p50 \(microseconds(cpu, 0.5)) µs, p99 \(microseconds(cpu, 0.99)) µs (\(times.count) samples)")
}

pixels.withUnsafeBytes { buffer in
    let frame = DisplayFrame(pixels: buffer.baseAddress!, width: width, height: height, stride: width * 4)
    print("\(width)x\(height) frames, \(samples) samples each")
    do {
        let window = try X11Display(screen: screen)
        print("output: \(window.name)")
        for (name, change) in changes {
            var times: [(wall: Double, cpu: Double)] = []
            for _ in 0..<samples {
                times.append(measure { window.show(frame, scrolls: change.scrolls, damage: change.damage) })
                window.synchronize()
            }
            report("X window, " + name, times)
        }
    } catch {
        print("no X window: \(error)")
    }
    let layout = try! FrameBufferLayout(
        visibleWidth: width, visibleHeight: height, bitsPerPixel: 32,
        red: .init(offset: 16, length: 8), green: .init(offset: 8, length: 8), blue: .init(offset: 0, length: 8),
        lineLength: width * 4, memoryLength: width * height * 4
    )
    let memory = UnsafeMutableRawPointer.allocate(byteCount: layout.memoryLength, alignment: 64)
    defer { memory.deallocate() }
    for (name, change) in changes {
        var times: [(wall: Double, cpu: Double)] = []
        for _ in 0..<samples {
            times.append(measure { layout.write(frame, scrolls: change.scrolls, damage: change.damage, into: memory) })
        }
        report("frame buffer layout, " + name, times)
    }
}
