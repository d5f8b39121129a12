import PatchNotify

extension CommandFailure {
    /// `release --notify` and `serve --notify-on-publish` (docs/triggers.md "Errors").
    init(notify error: NotifyError) {
        switch error {
        case .credentialMissing, .credentialInvalid:
            self.init(kind: "apns_credentials", message: error.description, exitStatus: .apnsCredentials,
                      hint: "configure APNs as docs/triggers.md \"Credentials\" says: team id and key id (10 characters each), the .p8 key Apple issued, the app's bundle id as topic")
        case .credentialsRejected:
            self.init(kind: "apns_credentials", message: error.description, exitStatus: .apnsCredentials,
                      hint: "check that the key id, team id and .p8 belong together and that the key may push to the topic (bundle id) in this environment (sandbox for development builds, production for TestFlight and the App Store)")
        case .deviceTokenInvalid:
            self.init(kind: "malformed_input", message: error.description, exitStatus: .malformedInput,
                      hint: "list one hex device token per line, as the app receives it in didRegisterForRemoteNotificationsWithDeviceToken")
        case .payloadTooLarge:
            self.init(kind: "limit_exceeded", message: error.description, exitStatus: .limitExceeded,
                      hint: "shorten the channel name or app key: the payload carries them")
        case .endpointInvalid:
            self.init(kind: "usage", message: error.description, exitStatus: .usage, hint: "give --apns-endpoint as https://host[:port] and --apns-ca as a readable PEM file")
        case .payloadUnencodable:
            self.init(kind: "internal", message: error.description, exitStatus: .internalError, hint: Self.reportBug)
        }
    }
}
