//! Type and property keys of the `.riv` subset re2d writes (rive-export.md §4),
//! and the writer's field-type table (§1).
//!
//! The structural reader ([`super::read`]) keeps its own transcription of
//! §4.2 on purpose: a key typed wrongly here must be caught there.

/// Type keys (§4.1).
pub mod ty {
    /// Backboard: file-level root, first object.
    pub const BACKBOARD: u64 = 23;
    /// ImageAsset: one per embedded image.
    pub const IMAGE_ASSET: u64 = 105;
    /// FileAssetContents: the bytes of the preceding asset.
    pub const FILE_ASSET_CONTENTS: u64 = 106;
    /// Artboard: index 0 of its component list.
    pub const ARTBOARD: u64 = 1;
    /// RootBone: skeleton root positioned by x/y.
    pub const ROOT_BONE: u64 = 41;
    /// Bone: sits at its parent's tip.
    pub const BONE: u64 = 40;
    /// Image: drawable that owns a mesh.
    pub const IMAGE: u64 = 100;
    /// Mesh: triangle list.
    pub const MESH: u64 = 109;
    /// MeshVertex: position and UV.
    pub const MESH_VERTEX: u64 = 108;
    /// Skin: bind transform of the skinnable.
    pub const SKIN: u64 = 43;
    /// Tendon: one per bone (slot `k+1`).
    pub const TENDON: u64 = 44;
    /// Weight: up to 4 influences of a vertex.
    pub const WEIGHT: u64 = 45;
    /// LinearAnimation: a clip.
    pub const LINEAR_ANIMATION: u64 = 31;
    /// KeyedObject: an animated component.
    pub const KEYED_OBJECT: u64 = 25;
    /// KeyedProperty: an animated property.
    pub const KEYED_PROPERTY: u64 = 26;
    /// KeyFrameDouble: one key.
    pub const KEY_FRAME_DOUBLE: u64 = 30;
    /// StateMachine (§11.1).
    pub const STATE_MACHINE: u64 = 53;
    /// StateMachineNumber: a number input.
    pub const SM_NUMBER: u64 = 56;
    /// StateMachineTrigger: a trigger input.
    pub const SM_TRIGGER: u64 = 58;
    /// StateMachineLayer.
    pub const SM_LAYER: u64 = 57;
    /// EntryState.
    pub const ENTRY_STATE: u64 = 63;
    /// AnyState.
    pub const ANY_STATE: u64 = 62;
    /// ExitState.
    pub const EXIT_STATE: u64 = 64;
    /// AnimationState: plays one clip.
    pub const ANIMATION_STATE: u64 = 61;
    /// BlendState1DInput: a 1-D blend driven by a Number input.
    pub const BLEND_STATE_1D: u64 = 76;
    /// BlendAnimation1D: one clip of a 1-D blend.
    pub const BLEND_ANIMATION_1D: u64 = 75;
    /// StateTransition.
    pub const STATE_TRANSITION: u64 = 65;
    /// TransitionTriggerCondition.
    pub const TRIGGER_CONDITION: u64 = 68;
    /// DrawRules: re-orders its parent Image (§11.6).
    pub const DRAW_RULES: u64 = 49;
    /// DrawTarget: one place a DrawRules can put its Image.
    pub const DRAW_TARGET: u64 = 48;
    /// KeyFrameId: an id-valued key that holds (draw-order keys).
    pub const KEY_FRAME_ID: u64 = 50;
}

/// Property keys (§4.2).
pub mod prop {
    /// Component.name (string).
    pub const NAME: u64 = 4;
    /// Component.parentId (uint).
    pub const PARENT_ID: u64 = 5;
    /// LayoutComponent.width (double).
    pub const WIDTH: u64 = 7;
    /// LayoutComponent.height (double).
    pub const HEIGHT: u64 = 8;
    /// TransformComponent.rotation (double, radians).
    pub const ROTATION: u64 = 15;
    /// Vertex.x (double).
    pub const VERTEX_X: u64 = 24;
    /// Vertex.y (double).
    pub const VERTEX_Y: u64 = 25;
    /// KeyedObject.objectId (uint).
    pub const OBJECT_ID: u64 = 51;
    /// KeyedProperty.propertyKey (uint).
    pub const PROPERTY_KEY: u64 = 53;
    /// Animation.name (string).
    pub const ANIMATION_NAME: u64 = 55;
    /// LinearAnimation.fps (uint).
    pub const FPS: u64 = 56;
    /// LinearAnimation.duration (uint, frames).
    pub const DURATION: u64 = 57;
    /// LinearAnimation.loopValue (uint).
    pub const LOOP_VALUE: u64 = 59;
    /// KeyFrame.frame (uint).
    pub const FRAME: u64 = 67;
    /// KeyFrame.interpolationType (uint).
    pub const INTERPOLATION_TYPE: u64 = 68;
    /// KeyFrameDouble.value (double).
    pub const VALUE: u64 = 70;
    /// Bone.length (double).
    pub const BONE_LENGTH: u64 = 89;
    /// RootBone.x (double).
    pub const ROOT_X: u64 = 90;
    /// RootBone.y (double).
    pub const ROOT_Y: u64 = 91;
    /// Tendon.boneId (uint).
    pub const TENDON_BONE_ID: u64 = 95;
    /// Tendon bind xx (double); 97 yx, 98 xy, 99 yy, 100 tx, 101 ty follow.
    pub const TENDON_XX: u64 = 96;
    /// Tendon bind yx.
    pub const TENDON_YX: u64 = 97;
    /// Tendon bind xy.
    pub const TENDON_XY: u64 = 98;
    /// Tendon bind yy.
    pub const TENDON_YY: u64 = 99;
    /// Tendon bind tx.
    pub const TENDON_TX: u64 = 100;
    /// Tendon bind ty.
    pub const TENDON_TY: u64 = 101;
    /// Weight.values (uint, 4 packed bytes).
    pub const WEIGHT_VALUES: u64 = 102;
    /// Weight.indices (uint, 4 packed bytes).
    pub const WEIGHT_INDICES: u64 = 103;
    /// Asset.name (string).
    pub const ASSET_NAME: u64 = 203;
    /// FileAsset.assetId (uint; out-of-band id, not the Image.assetId space).
    pub const FILE_ASSET_ID: u64 = 204;
    /// Image.assetId (uint; index into the file's asset list).
    pub const IMAGE_ASSET_ID: u64 = 206;
    /// DrawableAsset.height (double).
    pub const ASSET_HEIGHT: u64 = 207;
    /// DrawableAsset.width (double).
    pub const ASSET_WIDTH: u64 = 208;
    /// FileAssetContents.bytes (bytes).
    pub const CONTENTS_BYTES: u64 = 212;
    /// MeshVertex.u (double).
    pub const U: u64 = 215;
    /// MeshVertex.v (double).
    pub const V: u64 = 216;
    /// Mesh.triangleIndexBytes (bytes).
    pub const TRIANGLE_INDEX_BYTES: u64 = 223;
    /// Artboard.defaultStateMachineId (uint).
    pub const DEFAULT_STATE_MACHINE_ID: u64 = 236;
    /// StateMachineComponent.name (string): inputs and layers.
    pub const SM_NAME: u64 = 138;
    /// StateMachineNumber.value (double).
    pub const SM_NUMBER_VALUE: u64 = 140;
    /// AnimationState.animationId (uint).
    pub const ANIMATION_STATE_ANIMATION_ID: u64 = 149;
    /// StateTransition.stateToId (uint).
    pub const STATE_TO_ID: u64 = 151;
    /// StateTransition.flags (uint).
    pub const TRANSITION_FLAGS: u64 = 152;
    /// TransitionInputCondition.inputId (uint).
    pub const CONDITION_INPUT_ID: u64 = 155;
    /// StateTransition.duration (uint).
    pub const TRANSITION_DURATION: u64 = 158;
    /// StateTransition.exitTime (uint).
    pub const EXIT_TIME: u64 = 160;
    /// BlendAnimation.animationId (uint).
    pub const BLEND_ANIMATION_ID: u64 = 165;
    /// BlendAnimation1D.value (double).
    pub const BLEND_VALUE: u64 = 166;
    /// BlendState1DInput.inputId (uint).
    pub const BLEND_INPUT_ID: u64 = 167;
    /// LayerState.flags (uint).
    pub const LAYER_STATE_FLAGS: u64 = 536;
    /// DrawTarget.drawableId (uint, artboard index).
    pub const DRAWABLE_ID: u64 = 119;
    /// DrawTarget.placementValue (uint: 0 before, 1 after).
    pub const PLACEMENT_VALUE: u64 = 120;
    /// DrawRules.drawTargetId (uint, artboard index; keyed by draw-order keys).
    pub const DRAW_TARGET_ID: u64 = 121;
    /// KeyFrameId.value (uint).
    pub const KEY_FRAME_ID_VALUE: u64 = 122;
}

/// A field type of §1 (the ToC id is [`FieldType::toc_id`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldType {
    /// varuint (uint, id, enum, packed weights).
    Uint,
    /// varuint length + UTF-8.
    Str,
    /// varuint length + raw bytes.
    Bytes,
    /// IEEE binary32, little-endian ("double" in Rive's definitions).
    Double,
}

impl FieldType {
    /// The 2-bit id in the ToC bitmap (§1): uint/bool 0, string/bytes 1, double 2.
    pub fn toc_id(self) -> u32 {
        match self {
            FieldType::Uint => 0,
            FieldType::Str | FieldType::Bytes => 1,
            FieldType::Double => 2,
        }
    }
}

/// Field type of a property key re2d writes; `None` for any other key
/// (writing one is a bug: the runtime could not skip it).
pub fn field_type(key: u64) -> Option<FieldType> {
    use FieldType::*;
    use prop::*;
    Some(match key {
        NAME | ANIMATION_NAME | ASSET_NAME | SM_NAME => Str,
        CONTENTS_BYTES | TRIANGLE_INDEX_BYTES => Bytes,
        PARENT_ID
        | OBJECT_ID
        | PROPERTY_KEY
        | FPS
        | DURATION
        | LOOP_VALUE
        | FRAME
        | INTERPOLATION_TYPE
        | TENDON_BONE_ID
        | WEIGHT_VALUES
        | WEIGHT_INDICES
        | FILE_ASSET_ID
        | IMAGE_ASSET_ID
        | DEFAULT_STATE_MACHINE_ID
        | ANIMATION_STATE_ANIMATION_ID
        | STATE_TO_ID
        | TRANSITION_FLAGS
        | CONDITION_INPUT_ID
        | TRANSITION_DURATION
        | EXIT_TIME
        | BLEND_ANIMATION_ID
        | BLEND_INPUT_ID
        | LAYER_STATE_FLAGS
        | DRAWABLE_ID
        | PLACEMENT_VALUE
        | DRAW_TARGET_ID
        | KEY_FRAME_ID_VALUE => Uint,
        WIDTH | HEIGHT | ROTATION | VERTEX_X | VERTEX_Y | VALUE | BONE_LENGTH | ROOT_X | ROOT_Y
        | TENDON_XX | TENDON_YX | TENDON_XY | TENDON_YY | TENDON_TX | TENDON_TY | ASSET_HEIGHT
        | ASSET_WIDTH | U | V | SM_NUMBER_VALUE | BLEND_VALUE => Double,
        _ => return None,
    })
}
