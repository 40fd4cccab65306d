import Foundation
import TestExpectations
import Testing
@testable import UIKit

// The system palette's light-mode values, and colour sets read from asset
// catalogs: Bundle.module's (Resources/Assets.xcassets beside this file)
// and catalogs written into a temporary bundle.

/// 8-bit components and the alpha of a colour.
private func bytes(_ color: UIColor) -> [Int] {
    let c = color.cgColor
    return [c.red, c.green, c.blue].map { Int(($0 * 255).rounded()) } + [Int((c.alpha * 100).rounded())]
}

/// A directory made into a bundle holding `files` (path → text).
private func temporaryBundle(_ files: [String: String]) throws -> Bundle {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("openuikit-bundle-\(UUID().uuidString)")
    for (path, text) in files {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
    return try #require(Bundle(path: root.path))
}

private func colorSet(_ entries: String) -> String { #"{"colors":[\#(entries)],"info":{"version":1}}"# }

@Suite struct SystemColorTests {
    @Test func thePaletteHasApplesLightValues() {
        // Apple's Human Interface Guidelines, Color, iOS 15-17, light.
        expectEqual(bytes(.systemRed), [255, 59, 48, 100])
        expectEqual(bytes(.systemOrange), [255, 149, 0, 100])
        expectEqual(bytes(.systemYellow), [255, 204, 0, 100])
        expectEqual(bytes(.systemGreen), [52, 199, 89, 100])
        expectEqual(bytes(.systemMint), [0, 199, 190, 100])
        expectEqual(bytes(.systemTeal), [48, 176, 199, 100])
        expectEqual(bytes(.systemCyan), [50, 173, 230, 100])
        expectEqual(bytes(.systemBlue), [0, 122, 255, 100])
        expectEqual(bytes(.systemIndigo), [88, 86, 214, 100])
        expectEqual(bytes(.systemPurple), [175, 82, 222, 100])
        expectEqual(bytes(.systemPink), [255, 45, 85, 100])
        expectEqual(bytes(.systemBrown), [162, 132, 94, 100])
        #expect([UIColor.systemGray, .systemGray2, .systemGray3, .systemGray4, .systemGray5, .systemGray6].map(bytes) == [
            [142, 142, 147, 100], [174, 174, 178, 100], [199, 199, 204, 100],
            [209, 209, 214, 100], [229, 229, 234, 100], [242, 242, 247, 100],
        ])
    }

    @Test func theSemanticColoursHaveUIKitsLightResolutions() {
        expectEqual(bytes(.label), [0, 0, 0, 100])
        #expect([UIColor.secondaryLabel, .tertiaryLabel, .quaternaryLabel, .placeholderText].map(bytes) == [
            [60, 60, 67, 60], [60, 60, 67, 30], [60, 60, 67, 18], [60, 60, 67, 30],
        ])
        #expect([UIColor.systemBackground, .secondarySystemBackground, .tertiarySystemBackground].map(bytes) == [
            [255, 255, 255, 100], [242, 242, 247, 100], [255, 255, 255, 100],
        ])
        #expect([UIColor.systemGroupedBackground, .secondarySystemGroupedBackground, .tertiarySystemGroupedBackground].map(bytes) == [
            [242, 242, 247, 100], [255, 255, 255, 100], [242, 242, 247, 100],
        ])
        #expect(bytes(.separator) == [60, 60, 67, 29] && bytes(.opaqueSeparator) == [198, 198, 200, 100])
        #expect([UIColor.systemFill, .secondarySystemFill, .tertiarySystemFill, .quaternarySystemFill].map(bytes) == [
            [120, 120, 128, 20], [120, 120, 128, 16], [118, 118, 128, 12], [116, 116, 128, 8],
        ])
        #expect(UIColor.link == .systemBlue && UIColor.tintColor == .systemBlue)
    }
}

@Suite struct NamedColorTests {
    @Test func aColourSetInTheModulesCatalogGivesItsLightOrDarkColour() throws {
        let brand = try #require(UIColor(named: "Brand", in: .module, compatibleWith: nil))
        // red "0.800", green "102" (of 255), blue "0x33" (of 255).
        expectEqual(bytes(brand), [204, 102, 51, 100])
        let dark = try #require(UIColor(named: "Brand", in: .module, compatibleWith: UITraitCollection(userInterfaceStyle: .dark)))
        expectEqual(bytes(dark), [255, 255, 255, 50])
        let light = UIColor(named: "Brand", in: .module, compatibleWith: UITraitCollection(userInterfaceStyle: .light))
        expectEqual(light, brand)
    }

    @Test func foldersGreysAndSystemReferences() throws {
        let accent = try #require(UIColor(named: "Palette/Accent", in: .module, compatibleWith: nil))
        expectEqual(bytes(accent), [128, 128, 128, 25])
        expectEqual(UIColor(named: "Accent", in: .module, compatibleWith: nil), accent, "a bare name finds the asset in any folder")
        #expect(UIColor(named: "Other/Accent", in: .module, compatibleWith: nil) == nil, "the wrong folder finds nothing")
        expectEqual(UIColor(named: "Palette/Referenced", in: .module, compatibleWith: nil), .systemIndigo)
    }

    @Test func namesThatAreMissingOrClimbOutOfTheBundleGiveNil() {
        #expect(UIColor(named: "Missing", in: .module, compatibleWith: nil) == nil)
        #expect(UIColor(named: "../Brand", in: .module, compatibleWith: nil) == nil)
        #expect(UIColor(named: "", in: .module, compatibleWith: nil) == nil)
        #expect(UIColor(named: "Brand") == nil, "the main bundle (the test runner's) has no catalog")
    }

    @Test func aColourSetLooseInTheBundleAndAnIPhoneEntryBeforeAUniversalOne() throws {
        let bundle = try temporaryBundle([
            "Loose.colorset/Contents.json": colorSet(#"""
                {"idiom":"universal","color":{"color-space":"srgb","components":{"red":"0","green":"0","blue":"255"}}},
                {"idiom":"iphone","color":{"color-space":"display-p3","components":{"red":"0x00","green":"0xFF","blue":"0x00","alpha":"1.000"}}},
                {"idiom":"ipad","color":{"color-space":"srgb","components":{"red":"1.0","green":"0.0","blue":"0.0","alpha":"1.0"}}}
                """#),
            "Lit.colorset/Contents.json": colorSet(#"""
                {"idiom":"universal","color":{"color-space":"srgb","components":{"red":"0.0","green":"0.0","blue":"0.0","alpha":"1.0"}}},
                {"idiom":"universal","appearances":[{"appearance":"luminosity","value":"light"}],
                 "color":{"color-space":"srgb","components":{"red":"1.0","green":"1.0","blue":"1.0","alpha":"1.0"}}},
                {"idiom":"universal","appearances":[{"appearance":"contrast","value":"high"}],
                 "color":{"color-space":"srgb","components":{"red":"1.0","green":"0.0","blue":"0.0","alpha":"1.0"}}}
                """#),
        ])
        expectEqual(UIColor(named: "Loose", in: bundle, compatibleWith: nil).map(bytes), [0, 255, 0, 100])
        expectEqual(UIColor(named: "Lit", in: bundle, compatibleWith: nil), .white, "an explicit light entry before \"any\"")
        expectEqual(UIColor(named: "Lit", in: bundle, compatibleWith: UITraitCollection(userInterfaceStyle: .dark)), .white, "no dark entry: the light one")
    }

    @Test func badContentsGiveNilAndSayWhatIsWrong() throws {
        let bundle = try temporaryBundle([
            "NotJSON.colorset/Contents.json": "{ colors: ",
            "NoList.colorset/Contents.json": #"{"info":{}}"#,
            "OutOfRange.colorset/Contents.json": colorSet(#"{"color":{"components":{"red":"1.5","green":"0","blue":"0"}}}"#),
            "BigByte.colorset/Contents.json": colorSet(#"{"color":{"components":{"red":"256","green":"0","blue":"0"}}}"#),
            "NoGreen.colorset/Contents.json": colorSet(#"{"color":{"components":{"red":"0.5","blue":"0"}}}"#),
            "Unknown.colorset/Contents.json": colorSet(#"{"color":{"platform":"ios","reference":"systemPlaidColor"}}"#),
            "OnlyPad.colorset/Contents.json": colorSet(#"{"idiom":"ipad","color":{"components":{"red":"1","green":"0","blue":"0"}}}"#),
            "Empty.colorset/placeholder": "",
        ])
        let expected = [
            "NotJSON": "not a JSON object", "NoList": "no \"colors\" list",
            "OutOfRange": "\"red\" is not a number from 0 to 1 or 0 to 255",
            "BigByte": "\"red\" is not a number from 0 to 1 or 0 to 255", "NoGreen": "no \"green\" component",
            "Unknown": "unknown system colour \"systemPlaidColor\"", "OnlyPad": "no colour for an iPhone",
            "Empty": "no Contents.json",
        ]
        for (name, problem) in expected {
            #expect(UIColor(named: name, in: bundle, compatibleWith: nil) == nil, "\(name)")
            let folder = try #require(NamedResources.assetFolder(named: name, kind: "colorset", in: bundle))
            #expect(throws: AssetCatalogError(file: folder.appendingPathComponent("Contents.json").path, problem: problem)) {
                try UIColor.colorSet(at: folder, dark: false)
            }
        }
    }

    @Test func componentsAreReadAsXcodeWritesThem() {
        expectEqual(UIColor.colorComponent("0.500"), 0.5)
        expectEqual(UIColor.colorComponent("0x80"), 128.0 / 255)
        expectEqual(UIColor.colorComponent("255"), 1)
        expectEqual(UIColor.colorComponent(NSNumber(value: 0.25)), 0.25)
        for bad: Any in ["", "0xZZ", "-0.1", "nan", "1e400", "300", "red", [1]] {
            #expect(UIColor.colorComponent(bad) == nil, "\(bad)")
        }
    }
}
