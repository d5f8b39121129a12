// Small projects written for these tests, shaped like what Xcode 15 and 16 write: a classic project
// (groups, two targets, one without a Frameworks phase, an existing remote package, a local
// package, a folder name with a space) and an Xcode 16 project with a synchronized folder whose
// exception set keeps a file out of the target.
enum Fixtures {
    static let classic = """
// !$*UTF8*$!
{
	archiveVersion = 1;
	classes = {
	};
	objectVersion = 60;
	objects = {

/* Begin PBXBuildFile section */
		A10000000000000000000001 /* SampleApp.swift in Sources */ = {isa = PBXBuildFile; fileRef = A20000000000000000000001 /* SampleApp.swift */; };
		A10000000000000000000002 /* ContentView.swift in Sources */ = {isa = PBXBuildFile; fileRef = A20000000000000000000002 /* ContentView.swift */; };
		A10000000000000000000003 /* ItemView.swift in Sources */ = {isa = PBXBuildFile; fileRef = A20000000000000000000003 /* ItemView.swift */; };
		A10000000000000000000004 /* Collections in Frameworks */ = {isa = PBXBuildFile; productRef = A90000000000000000000002 /* Collections */; };
		A10000000000000000000005 /* Widget.swift in Sources */ = {isa = PBXBuildFile; fileRef = A20000000000000000000005 /* Widget.swift */; };
		A10000000000000000000006 /* ItemView.swift in Sources */ = {isa = PBXBuildFile; fileRef = A20000000000000000000003 /* ItemView.swift */; };
/* End PBXBuildFile section */

/* Begin PBXFileReference section */
		A20000000000000000000001 /* SampleApp.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = SampleApp.swift; sourceTree = "<group>"; };
		A20000000000000000000002 /* ContentView.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = ContentView.swift; sourceTree = "<group>"; };
		A20000000000000000000003 /* ItemView.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = ItemView.swift; sourceTree = "<group>"; };
		A20000000000000000000004 /* Sample App.app */ = {isa = PBXFileReference; explicitFileType = wrapper.application; includeInIndex = 0; path = "Sample App.app"; sourceTree = BUILT_PRODUCTS_DIR; };
		A20000000000000000000005 /* Widget.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Widget.swift; sourceTree = "<group>"; };
		A20000000000000000000006 /* Info.plist */ = {isa = PBXFileReference; lastKnownFileType = text.plist.xml; path = Info.plist; sourceTree = "<group>"; };
		A20000000000000000000007 /* Core */ = {isa = PBXFileReference; lastKnownFileType = wrapper; path = Core; sourceTree = "<group>"; };
/* End PBXFileReference section */

/* Begin PBXFrameworksBuildPhase section */
		A30000000000000000000002 /* Frameworks */ = {
			isa = PBXFrameworksBuildPhase;
			buildActionMask = 2147483647;
			files = (
				A10000000000000000000004 /* Collections in Frameworks */,
			);
			runOnlyForDeploymentPostprocessing = 0;
		};
/* End PBXFrameworksBuildPhase section */

/* Begin PBXGroup section */
		A40000000000000000000001 = {
			isa = PBXGroup;
			children = (
				A40000000000000000000002 /* Sample App */,
				A40000000000000000000005 /* Widget */,
				A40000000000000000000006 /* Packages */,
				A40000000000000000000004 /* Products */,
			);
			sourceTree = "<group>";
		};
		A40000000000000000000002 /* Sample App */ = {
			isa = PBXGroup;
			children = (
				A20000000000000000000001 /* SampleApp.swift */,
				A20000000000000000000002 /* ContentView.swift */,
				A40000000000000000000003 /* Views */,
				A20000000000000000000006 /* Info.plist */,
			);
			path = "Sample App";
			sourceTree = "<group>";
		};
		A40000000000000000000003 /* Views */ = {
			isa = PBXGroup;
			children = (
				A20000000000000000000003 /* ItemView.swift */,
			);
			path = Views;
			sourceTree = "<group>";
		};
		A40000000000000000000004 /* Products */ = {
			isa = PBXGroup;
			children = (
				A20000000000000000000004 /* Sample App.app */,
			);
			name = Products;
			sourceTree = "<group>";
		};
		A40000000000000000000005 /* Widget */ = {
			isa = PBXGroup;
			children = (
				A20000000000000000000005 /* Widget.swift */,
			);
			path = Widget;
			sourceTree = "<group>";
		};
		A40000000000000000000006 /* Packages */ = {
			isa = PBXGroup;
			children = (
				A20000000000000000000007 /* Core */,
			);
			name = Packages;
			sourceTree = "<group>";
		};
/* End PBXGroup section */

/* Begin PBXNativeTarget section */
		A50000000000000000000001 /* Sample App */ = {
			isa = PBXNativeTarget;
			buildConfigurationList = A80000000000000000000002 /* Build configuration list for PBXNativeTarget "Sample App" */;
			buildPhases = (
				A30000000000000000000001 /* Sources */,
				A30000000000000000000002 /* Frameworks */,
				A30000000000000000000003 /* Resources */,
			);
			buildRules = (
			);
			dependencies = (
			);
			name = "Sample App";
			packageProductDependencies = (
				A90000000000000000000002 /* Collections */,
			);
			productName = "Sample App";
			productReference = A20000000000000000000004 /* Sample App.app */;
			productType = "com.apple.product-type.application";
		};
		A50000000000000000000002 /* Sample Widget */ = {
			isa = PBXNativeTarget;
			buildConfigurationList = A80000000000000000000003 /* Build configuration list for PBXNativeTarget "Sample Widget" */;
			buildPhases = (
				A30000000000000000000004 /* Sources */,
			);
			buildRules = (
			);
			dependencies = (
			);
			name = "Sample Widget";
			productName = "Sample Widget";
			productType = "com.apple.product-type.app-extension";
		};
/* End PBXNativeTarget section */

/* Begin PBXProject section */
		A60000000000000000000001 /* Project object */ = {
			isa = PBXProject;
			attributes = {
				BuildIndependentTargetsInParallel = 1;
				LastSwiftUpdateCheck = 1500;
				LastUpgradeCheck = 1500;
			};
			buildConfigurationList = A80000000000000000000001 /* Build configuration list for PBXProject "Sample App" */;
			compatibilityVersion = "Xcode 14.0";
			developmentRegion = en;
			hasScannedForEncodings = 0;
			knownRegions = (
				en,
				Base,
			);
			mainGroup = A40000000000000000000001;
			packageReferences = (
				A90000000000000000000001 /* XCRemoteSwiftPackageReference "swift-collections" */,
				A90000000000000000000003 /* XCLocalSwiftPackageReference "Packages/Core" */,
			);
			productRefGroup = A40000000000000000000004 /* Products */;
			projectDirPath = "";
			projectRoot = "";
			targets = (
				A50000000000000000000001 /* Sample App */,
				A50000000000000000000002 /* Sample Widget */,
			);
		};
/* End PBXProject section */

/* Begin PBXResourcesBuildPhase section */
		A30000000000000000000003 /* Resources */ = {
			isa = PBXResourcesBuildPhase;
			buildActionMask = 2147483647;
			files = (
			);
			runOnlyForDeploymentPostprocessing = 0;
		};
/* End PBXResourcesBuildPhase section */

/* Begin PBXSourcesBuildPhase section */
		A30000000000000000000001 /* Sources */ = {
			isa = PBXSourcesBuildPhase;
			buildActionMask = 2147483647;
			files = (
				A10000000000000000000002 /* ContentView.swift in Sources */,
				A10000000000000000000003 /* ItemView.swift in Sources */,
				A10000000000000000000001 /* SampleApp.swift in Sources */,
			);
			runOnlyForDeploymentPostprocessing = 0;
		};
		A30000000000000000000004 /* Sources */ = {
			isa = PBXSourcesBuildPhase;
			buildActionMask = 2147483647;
			files = (
				A10000000000000000000005 /* Widget.swift in Sources */,
				A10000000000000000000006 /* ItemView.swift in Sources */,
			);
			runOnlyForDeploymentPostprocessing = 0;
		};
/* End PBXSourcesBuildPhase section */

/* Begin XCBuildConfiguration section */
		A70000000000000000000001 /* Debug */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				SWIFT_VERSION = 5.0;
			};
			name = Debug;
		};
		A70000000000000000000002 /* Debug */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				INFOPLIST_FILE = "Sample App/Info.plist";
				PRODUCT_BUNDLE_IDENTIFIER = "com.example.sample-app";
			};
			name = Debug;
		};
		A70000000000000000000003 /* Release */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				INFOPLIST_FILE = "Sample App/Info.plist";
				PRODUCT_BUNDLE_IDENTIFIER = "com.example.sample-app";
			};
			name = Release;
		};
		A70000000000000000000004 /* Debug */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				GENERATE_INFOPLIST_FILE = YES;
			};
			name = Debug;
		};
/* End XCBuildConfiguration section */

/* Begin XCConfigurationList section */
		A80000000000000000000001 /* Build configuration list for PBXProject "Sample App" */ = {
			isa = XCConfigurationList;
			buildConfigurations = (
				A70000000000000000000001 /* Debug */,
			);
			defaultConfigurationIsVisible = 0;
			defaultConfigurationName = Debug;
		};
		A80000000000000000000002 /* Build configuration list for PBXNativeTarget "Sample App" */ = {
			isa = XCConfigurationList;
			buildConfigurations = (
				A70000000000000000000002 /* Debug */,
				A70000000000000000000003 /* Release */,
			);
			defaultConfigurationIsVisible = 0;
			defaultConfigurationName = Debug;
		};
		A80000000000000000000003 /* Build configuration list for PBXNativeTarget "Sample Widget" */ = {
			isa = XCConfigurationList;
			buildConfigurations = (
				A70000000000000000000004 /* Debug */,
			);
			defaultConfigurationIsVisible = 0;
			defaultConfigurationName = Debug;
		};
/* End XCConfigurationList section */

/* Begin XCLocalSwiftPackageReference section */
		A90000000000000000000003 /* XCLocalSwiftPackageReference "Packages/Core" */ = {
			isa = XCLocalSwiftPackageReference;
			relativePath = Packages/Core;
		};
/* End XCLocalSwiftPackageReference section */

/* Begin XCRemoteSwiftPackageReference section */
		A90000000000000000000001 /* XCRemoteSwiftPackageReference "swift-collections" */ = {
			isa = XCRemoteSwiftPackageReference;
			repositoryURL = "https://github.com/apple/swift-collections";
			requirement = {
				kind = upToNextMajorVersion;
				minimumVersion = 1.1.0;
			};
		};
/* End XCRemoteSwiftPackageReference section */

/* Begin XCSwiftPackageProductDependency section */
		A90000000000000000000002 /* Collections */ = {
			isa = XCSwiftPackageProductDependency;
			package = A90000000000000000000001 /* XCRemoteSwiftPackageReference "swift-collections" */;
			productName = Collections;
		};
/* End XCSwiftPackageProductDependency section */
	};
	rootObject = A60000000000000000000001 /* Project object */;
}

"""

    static let synchronized = """
// !$*UTF8*$!
{
	archiveVersion = 1;
	classes = {
	};
	objectVersion = 77;
	objects = {

/* Begin PBXFileReference section */
		B20000000000000000000001 /* Reader.app */ = {isa = PBXFileReference; explicitFileType = wrapper.application; includeInIndex = 0; path = Reader.app; sourceTree = BUILT_PRODUCTS_DIR; };
/* End PBXFileReference section */

/* Begin PBXFileSystemSynchronizedBuildFileExceptionSet section */
		B30000000000000000000001 /* PBXFileSystemSynchronizedBuildFileExceptionSet */ = {
			isa = PBXFileSystemSynchronizedBuildFileExceptionSet;
			membershipExceptions = (
				Info.plist,
				Patch/PatchThunks.swift,
			);
			target = B50000000000000000000001 /* Reader */;
		};
/* End PBXFileSystemSynchronizedBuildFileExceptionSet section */

/* Begin PBXFileSystemSynchronizedRootGroup section */
		B40000000000000000000002 /* Reader */ = {isa = PBXFileSystemSynchronizedRootGroup; exceptions = (B30000000000000000000001 /* PBXFileSystemSynchronizedBuildFileExceptionSet */, ); explicitFileTypes = {}; explicitFolders = (); path = Reader; sourceTree = "<group>"; };
/* End PBXFileSystemSynchronizedRootGroup section */

/* Begin PBXFrameworksBuildPhase section */
		B30000000000000000000003 /* Frameworks */ = {
			isa = PBXFrameworksBuildPhase;
			buildActionMask = 2147483647;
			files = (
			);
			runOnlyForDeploymentPostprocessing = 0;
		};
/* End PBXFrameworksBuildPhase section */

/* Begin PBXGroup section */
		B40000000000000000000001 = {
			isa = PBXGroup;
			children = (
				B40000000000000000000002 /* Reader */,
				B40000000000000000000003 /* Products */,
			);
			sourceTree = "<group>";
		};
		B40000000000000000000003 /* Products */ = {
			isa = PBXGroup;
			children = (
				B20000000000000000000001 /* Reader.app */,
			);
			name = Products;
			sourceTree = "<group>";
		};
/* End PBXGroup section */

/* Begin PBXNativeTarget section */
		B50000000000000000000001 /* Reader */ = {
			isa = PBXNativeTarget;
			buildConfigurationList = B80000000000000000000001 /* Build configuration list for PBXNativeTarget "Reader" */;
			buildPhases = (
				B30000000000000000000002 /* Sources */,
				B30000000000000000000003 /* Frameworks */,
			);
			buildRules = (
			);
			dependencies = (
			);
			fileSystemSynchronizedGroups = (
				B40000000000000000000002 /* Reader */,
			);
			name = Reader;
			packageProductDependencies = (
			);
			productName = Reader;
			productReference = B20000000000000000000001 /* Reader.app */;
			productType = "com.apple.product-type.application";
		};
/* End PBXNativeTarget section */

/* Begin PBXProject section */
		B60000000000000000000001 /* Project object */ = {
			isa = PBXProject;
			attributes = {
				BuildIndependentTargetsInParallel = 1;
				LastSwiftUpdateCheck = 1600;
				LastUpgradeCheck = 1600;
			};
			buildConfigurationList = B80000000000000000000002 /* Build configuration list for PBXProject "Reader" */;
			developmentRegion = en;
			hasScannedForEncodings = 0;
			knownRegions = (
				en,
				Base,
			);
			mainGroup = B40000000000000000000001;
			minimizedProjectReferenceProxies = 1;
			preferredProjectObjectVersion = 77;
			productRefGroup = B40000000000000000000003 /* Products */;
			projectDirPath = "";
			projectRoot = "";
			targets = (
				B50000000000000000000001 /* Reader */,
			);
		};
/* End PBXProject section */

/* Begin PBXSourcesBuildPhase section */
		B30000000000000000000002 /* Sources */ = {
			isa = PBXSourcesBuildPhase;
			buildActionMask = 2147483647;
			files = (
			);
			runOnlyForDeploymentPostprocessing = 0;
		};
/* End PBXSourcesBuildPhase section */

/* Begin XCBuildConfiguration section */
		B70000000000000000000001 /* Debug */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
				INFOPLIST_FILE = Reader/Info.plist;
			};
			name = Debug;
		};
		B70000000000000000000002 /* Debug */ = {
			isa = XCBuildConfiguration;
			buildSettings = {
			};
			name = Debug;
		};
/* End XCBuildConfiguration section */

/* Begin XCConfigurationList section */
		B80000000000000000000001 /* Build configuration list for PBXNativeTarget "Reader" */ = {
			isa = XCConfigurationList;
			buildConfigurations = (
				B70000000000000000000001 /* Debug */,
			);
			defaultConfigurationIsVisible = 0;
			defaultConfigurationName = Debug;
		};
		B80000000000000000000002 /* Build configuration list for PBXProject "Reader" */ = {
			isa = XCConfigurationList;
			buildConfigurations = (
				B70000000000000000000002 /* Debug */,
			);
			defaultConfigurationIsVisible = 0;
			defaultConfigurationName = Debug;
		};
/* End XCConfigurationList section */
	};
	rootObject = B60000000000000000000001 /* Project object */;
}

"""
}
