import TestExpectations
import Testing
import EventServer

@Suite struct EvemuParserTests {
    @Test func theHeaderDescribesTheDevice() {
        var parser = EvemuParser()
        let events = parser.parse(Array(readFile(recordingPath("pinch.evemu"))))
        let device = parser.device(fallbackName: "unused")
        expectEqual(device, touchScreen())
        expectEqual(device.capabilities, [.touchScreen])
        expectEqual(events.count, 36)
        #expect(parser.takeDiagnostics().isEmpty)
    }

    @Test func aMouseAndAKeyboardAreClassified() {
        for (name, capabilities) in [("mouse-drag.evemu", InputDeviceDescription.Capabilities.pointer), ("typing.evemu", .keyboard)] {
            var parser = EvemuParser()
            _ = parser.parse(readFile(recordingPath(name)))
            expectEqual(parser.device(fallbackName: name).capabilities, capabilities, "\(name)")
        }
    }

    @Test func linesMayArriveInAnySlices() {
        let text = readFile(recordingPath("two-finger-gesture.evemu"))
        var whole = EvemuParser()
        let expected = whole.parse(text) + whole.finish()
        for size in [1, 7, 64] {
            var parser = EvemuParser()
            var events: [LinuxInputEvent] = []
            for start in stride(from: 0, to: text.count, by: size) {
                events += parser.parse(text[start..<min(start + size, text.count)])
            }
            events += parser.finish()
            expectEqual(events, expected, "slices of \(size)")
        }
    }

    @Test func eventsKeepTheirTimeTypeCodeAndSignedValue() {
        var parser = EvemuParser()
        let events = parser.parse(Array("E: 12.000345 0003 0039 -001\t# SYN\nE: 1.5 0001 014a 1\n".utf8))
        #expect(events == [
            LinuxInputEvent(seconds: 12, microseconds: 345, type: 3, code: 0x39, value: -1),
            LinuxInputEvent(seconds: 1, microseconds: 500_000, type: 1, code: 0x14a, value: 1),
        ])
    }

    @Test func malformedLinesAreReportedWithTheirNumberAndSkipped() {
        var parser = EvemuParser()
        let text = """
            N: Broken
            A: 35 zero 100 0 0 0
            E: 0.1 0003
            E: x.000001 0003 0035 1
            Q: what
            this is not evemu
            B: 99 00
            E: 0.000002 0003 0035 0007

            """
        let events = parser.parse(Array(text.utf8))
        expectEqual(events, [LinuxInputEvent(seconds: 0, microseconds: 2, type: 3, code: 0x35, value: 7)])
        let diagnostics = parser.takeDiagnostics()
        #expect(diagnostics == [
            "line 2: malformed axis (\"A: 35 zero 100 0 0 0\"); skipped",
            "line 3: malformed event (\"E: 0.1 0003\"); skipped",
            "line 4: malformed event (\"E: x.000001 0003 0035 1\"); skipped",
            "line 5: unknown evemu line kind \"Q:\"; skipped",
            "line 6: not an evemu line (\"this is not evemu\"); skipped",
            "line 7: malformed event bits (\"B: 99 00\"); skipped",
        ])
        expectEqual(parser.device(fallbackName: "x").name, "Broken")
    }

    @Test func aLineLongerThanTheLimitIsSkippedWholeAndReadingGoesOn() {
        var parser = EvemuParser()
        let long = [UInt8](repeating: UInt8(ascii: "#"), count: EvemuParser.maximumLineLength * 2) + [10]
        let events = parser.parse(long + Array("E: 0.000001 0000 0000 0000\n".utf8))
        expectEqual(events.count, 1)
        expectEqual(parser.takeDiagnostics(), ["line 1: longer than 4096 bytes; skipped"])
        expectEqual(parser.lineNumber, 2)
    }

    @Test func withoutAHeaderTheDeviceIsUnknown() {
        var parser = EvemuParser()
        _ = parser.parse(Array("E: 0.000001 0000 0000 0000\n".utf8))
        #expect(!parser.device(fallbackName: "stream").isKnown)
        expectEqual(parser.device(fallbackName: "stream").name, "stream")
    }

    @Test func contentNotNameTellsTheFormats() {
        #expect(EvdevStreamDecoder.looksLikeEvemu(Array("# EVEMU 1.3\nN: x\n".utf8)))
        #expect(EvdevStreamDecoder.looksLikeEvemu(Array("E: 0.000001 0000 0000 0000\n".utf8)))
        #expect(!EvdevStreamDecoder.looksLikeEvemu(LinuxInputEvent(seconds: 0x2323_2323, microseconds: 0x2323, type: 0x2323, code: 0x2323, value: 0x2323_2323).bytes))
        #expect(!EvdevStreamDecoder.looksLikeEvemu(readFile(recordingPath("two-finger-gesture.events"))))
        #expect(!EvdevStreamDecoder.looksLikeEvemu([]))
    }

    @Test func anEndlessHeaderKeepsABoundedDescription() {
        // 2,000 lines of key bits arriving on a FIFO: the mask stays at its
        // bound, and so does the time the first event after them takes.
        var parser = EvemuParser()
        let line = Array(("B: 01" + String(repeating: " ff", count: 100) + "\n").utf8)
        for _ in 0..<2_000 { _ = parser.parse(line) }
        _ = parser.parse(Array("P: 01 00 00 00 00 00 00 00 00 00 00 00\n".utf8))
        let events = parser.parse(Array("E: 0.000001 0001 014a 1\n".utf8))
        expectEqual(events.count, 1)
        let device = parser.device(fallbackName: "endless")
        expectEqual(device.keys.count, EvemuParser.maximumMaskBytes * 8)
        let diagnostics = parser.takeDiagnostics()
        expectEqual(diagnostics.first, "line 1: more than 96 bytes of event bits for type 1; the rest are ignored")
        #expect(diagnostics.contains("line 2001: more than 8 bytes of properties; the rest are ignored"))
        expectEqual(diagnostics.count, 6, "\(diagnostics)")  // five of the first kind, one of the second
    }

    // Without a device header a file of bare records has no axis ranges:
    // its values land as screen points, most likely in a corner. Said once.
    @Test func bareRecordsWithoutAxisRangesSayTheirValuesAreTakenAsPoints() {
        let screen = Screen(width: 390, height: 844, scale: 3)
        let synReport = [UInt8](repeating: 0, count: LinuxInputEvent.size)
        var bare = EvdevStreamDecoder(name: "touches.events", screen: screen)
        _ = bare.decode(synReport + synReport)
        let said = bare.takeDiagnostics()
        expectEqual(said.count, 1)
        expectEqual(said.first?.hasPrefix("touches.events: bare input_event records carry no axis ranges"), true)
        expectEqual(said.first?.contains("--device-header"), true)
        var described = EvdevStreamDecoder(name: "touches.events", screen: screen, device: .unknown(name: "panel"))
        _ = described.decode(synReport)
        #expect(described.takeDiagnostics().isEmpty)
    }
}
