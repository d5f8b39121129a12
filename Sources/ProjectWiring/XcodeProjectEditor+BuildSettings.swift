import PBXProj

extension XcodeProjectEditor {
    /// The words of build setting `key` for the native target `target`, as its Release configuration
    /// sets it (every configuration's, when none is named Release), else as the project's
    /// configuration of the same name sets it: what a release build of the target uses. A value
    /// written as one string is split at spaces (`"iphoneos iphonesimulator macosx"`); `$(inherited)`
    /// and other references are left out. Empty when neither level sets it.
    package func buildSetting(_ key: String, ofTarget target: String) -> [String] {
        func configurations(of owner: PlistNode?) -> [(name: String, settings: PlistNode?)] {
            let ids = document.object(owner?["buildConfigurationList"]?.string ?? "")?["buildConfigurations"]?.strings ?? []
            let all = ids.map { id in (name: document.object(id)?["name"]?.string ?? "", settings: document.object(id)?["buildSettings"]) }
            let release = all.filter { $0.name == "Release" }
            return release.isEmpty ? all : release
        }
        func words(_ node: PlistNode?) -> [String]? {
            guard let node else { return nil }
            let items = node.string.map { $0.split(separator: " ").map(String.init) } ?? node.strings
            return items.filter { !$0.hasPrefix("$(") }
        }
        let node = document.objects(isa: "PBXNativeTarget").first { $0.node["name"]?.string == target }?.node
        var values: [String] = []
        for configuration in configurations(of: node) {
            let projectLevel = configurations(of: document.object(projectID)).first { $0.name == configuration.name }
            for value in words(configuration.settings?[key]) ?? words(projectLevel?.settings?[key]) ?? [] where !values.contains(value) {
                values.append(value)
            }
        }
        return values
    }
}
