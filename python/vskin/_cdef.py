# SPDX-License-Identifier: MIT
"""The C declarations the binding reads, copied from include/vskin/*.h.

cffi's ABI mode lays structs out from these declarations alone, so every
struct here must match the header field for field; python/tests/
test_layout.py compiles the headers and compares every size and offset.
"""

RUNTIME = r"""
const char *vs_version(void);

typedef enum vs_result {
    VS_OK = 0, VS_ERROR_ARGUMENT, VS_ERROR_IO, VS_ERROR_PARSE,
    VS_ERROR_INVALID, VS_ERROR_UNSUPPORTED, VS_ERROR_LIMIT,
    VS_ERROR_OUT_OF_MEMORY, VS_ERROR_NOT_FOUND, VS_ERROR_RENDER
} vs_result;

typedef struct vs_error {
    vs_result code;
    char message[1024];
} vs_error;

const char *vs_result_string(vs_result result);

typedef enum vs_source_format {
    VS_FORMAT_UNKNOWN = 0, VS_FORMAT_GLTF2, VS_FORMAT_GLTF1, VS_FORMAT_COLLADA
} vs_source_format;

typedef struct vs_trs {
    float translation[3];
    float rotation[4];
    float scale[3];
} vs_trs;

typedef struct vs_node {
    const char *name;
    const char *id;
    const char *sid;
    int32_t parent;
    uint32_t child_count;
    const uint32_t *children;
    _Bool has_matrix;
    float matrix[16];
    vs_trs rest_trs;
    int32_t mesh;
    int32_t skin;
    uint32_t weight_count;
    const float *weights;
} vs_node;

typedef enum vs_primitive_mode {
    VS_MODE_POINTS = 0, VS_MODE_LINES = 1, VS_MODE_LINE_LOOP = 2,
    VS_MODE_LINE_STRIP = 3, VS_MODE_TRIANGLES = 4,
    VS_MODE_TRIANGLE_STRIP = 5, VS_MODE_TRIANGLE_FAN = 6
} vs_primitive_mode;

typedef struct vs_morph_target {
    const float *positions;
    const float *normals;
    const float *tangents;
} vs_morph_target;

typedef struct vs_primitive {
    vs_primitive_mode mode;
    uint32_t vertex_count;
    const float *positions;
    const float *normals;
    const float *tangents;
    const float *texcoords;
    uint32_t influence_count;
    const uint16_t *joints;
    const float *weights;
    uint32_t index_count;
    const uint32_t *indices;
    uint32_t target_count;
    const vs_morph_target *targets;
    int32_t material;
    const uint32_t *source_vertex;
    const float *colors;
    const float *base_color_texcoords;
} vs_primitive;

typedef struct vs_mesh {
    const char *name;
    uint32_t primitive_count;
    const vs_primitive *primitives;
    uint32_t weight_count;
    const float *weights;
} vs_mesh;

typedef struct vs_sampler {
    uint32_t mag_filter;
    uint32_t min_filter;
    uint32_t wrap_s, wrap_t;
} vs_sampler;

typedef struct vs_texture_ref {
    int32_t image;
    uint32_t texcoord;
    vs_sampler sampler;
    _Bool has_transform;
    float offset[2];
    float rotation;
    float scale[2];
} vs_texture_ref;

typedef enum vs_alpha_mode {
    VS_ALPHA_OPAQUE = 0, VS_ALPHA_MASK, VS_ALPHA_BLEND
} vs_alpha_mode;

typedef struct vs_material {
    const char *name;
    float base_color[4];
    vs_texture_ref base_color_texture;
    vs_alpha_mode alpha_mode;
    float alpha_cutoff;
    _Bool double_sided;
} vs_material;

typedef struct vs_image {
    const char *name;
    const char *uri;
    const char *mime_type;
    const uint8_t *data;
    size_t size;
} vs_image;

typedef struct vs_skin {
    const char *name;
    uint32_t joint_count;
    const uint32_t *joints;
    const float *inverse_bind_matrices;
    float bind_shape_matrix[16];
    int32_t skeleton;
} vs_skin;

typedef enum vs_anim_path {
    VS_PATH_TRANSLATION = 0, VS_PATH_ROTATION, VS_PATH_SCALE, VS_PATH_WEIGHTS
} vs_anim_path;

typedef enum vs_interpolation {
    VS_INTERP_LINEAR = 0, VS_INTERP_STEP, VS_INTERP_CUBICSPLINE
} vs_interpolation;

typedef struct vs_anim_sampler {
    vs_interpolation interpolation;
    uint32_t key_count;
    const float *times;
    uint32_t components;
    const float *values;
} vs_anim_sampler;

typedef struct vs_anim_channel {
    uint32_t node;
    vs_anim_path path;
    uint32_t sampler;
} vs_anim_channel;

typedef struct vs_clip {
    const char *name;
    float start;
    float end;
    uint32_t channel_count;
    const vs_anim_channel *channels;
    uint32_t sampler_count;
    const vs_anim_sampler *samplers;
} vs_clip;

typedef struct vs_scene {
    const char *name;
    uint32_t node_count;
    const uint32_t *nodes;
} vs_scene;

typedef enum vs_up_axis { VS_UP_Y = 0, VS_UP_Z, VS_UP_X } vs_up_axis;

typedef struct vs_warning {
    const char *object;
    const char *message;
} vs_warning;

typedef struct vs_asset {
    vs_source_format format;
    const char *source_name;
    const char *generator;
    vs_up_axis up_axis;
    float unit_meters;
    uint32_t node_count;
    const vs_node *nodes;
    const uint32_t *node_order;
    uint32_t scene_count;
    const vs_scene *scenes;
    int32_t default_scene;
    uint32_t mesh_count;
    const vs_mesh *meshes;
    uint32_t material_count;
    const vs_material *materials;
    uint32_t image_count;
    const vs_image *images;
    uint32_t skin_count;
    const vs_skin *skins;
    uint32_t clip_count;
    const vs_clip *clips;
    uint32_t instance_count;
    const uint32_t *instances;
    uint32_t warning_count;
    const vs_warning *warnings;
    void *internal_;
} vs_asset;

typedef struct vs_allocator {
    void *(*alloc)(size_t size, void *user);
    void (*free)(void *ptr, void *user);
    void *user;
} vs_allocator;

typedef struct vs_file_reader {
    vs_result (*read)(const char *path, uint64_t max_size, void **out_data,
                      size_t *out_size, vs_error *error, void *user);
    void (*release)(void *data, size_t size, void *user);
    void *user;
} vs_file_reader;

typedef struct vs_limits {
    uint64_t max_file_size;
    uint64_t max_buffer_size;
    uint64_t max_total_memory;
    uint32_t max_nodes;
    uint32_t max_joints;
    uint32_t max_depth;
    uint64_t max_accessor_elements;
    uint32_t max_keyframes;
    uint64_t max_instanced_vertices;
} vs_limits;

typedef struct vs_load_options {
    const char *base_dir;
    vs_limits limits;
    _Bool allow_external_paths;
    vs_allocator allocator;
    vs_file_reader file_reader;
    _Bool strict;
} vs_load_options;

vs_result vs_asset_load_file(const char *path, const vs_load_options *options,
                             vs_asset **out_asset, vs_error *error);
vs_result vs_asset_load_memory(const void *data, size_t size, const char *name,
                               const vs_load_options *options,
                               vs_asset **out_asset, vs_error *error);
void vs_asset_free(vs_asset *asset);
int32_t vs_asset_find_clip(const vs_asset *asset, const char *name_or_index);
void vs_asset_rest_world(const vs_asset *asset, uint32_t node, float out[16]);
const void *vs_default_asset_data(size_t *size);

typedef struct vs_pose vs_pose;

typedef enum vs_time_mode { VS_TIME_CLAMP = 0, VS_TIME_LOOP } vs_time_mode;

vs_result vs_pose_create(const vs_asset *asset, vs_pose **out_pose,
                         vs_error *error);
void vs_pose_free(vs_pose *pose);
void vs_pose_reset(vs_pose *pose);
vs_result vs_pose_sample(vs_pose *pose, uint32_t clip, float time,
                         vs_time_mode mode, vs_error *error);
void vs_pose_update_world(vs_pose *pose);
void vs_pose_set_local(vs_pose *pose, uint32_t node, const vs_trs *trs);
void vs_pose_get_local(const vs_pose *pose, uint32_t node, float out[16]);
const float *vs_pose_world(const vs_pose *pose, uint32_t node);
const float *vs_pose_morph_weights(const vs_pose *pose, uint32_t node,
                                   uint32_t *count);
vs_result vs_pose_joint_matrices(const vs_pose *pose, uint32_t skin,
                                 int32_t relative_to, float *out,
                                 vs_error *error);

typedef enum vs_skin_flags {
    VS_SKIN_RAW_WEIGHTS = 1,
    VS_SKIN_STREAMING_STORES = 2,
    VS_SKIN_NORMALS_BY_MATRIX = 4,
    VS_SKIN_CACHED_STORES = 8
} vs_skin_flags;

typedef enum vs_skin_method {
    VS_SKIN_LINEAR = 0, VS_SKIN_DUAL_QUATERNION = 1
} vs_skin_method;

typedef struct vs_posed_primitive {
    uint32_t vertex_count;
    float *positions;
    float *normals;
    float *tangents;
    vs_allocator allocator;
} vs_posed_primitive;

typedef enum vs_skin_space { VS_SPACE_WORLD = 0, VS_SPACE_SKELETON = 1 } vs_skin_space;

typedef struct vs_pose_mesh_options {
    uint32_t skin_flags;
    vs_skin_space space;
    vs_skin_method method;
} vs_pose_mesh_options;

vs_result vs_pose_mesh_primitive(const vs_pose *pose, uint32_t node,
                                 uint32_t primitive,
                                 const vs_pose_mesh_options *options,
                                 vs_posed_primitive *out, vs_error *error);
void vs_posed_primitive_free(vs_posed_primitive *posed);

vs_result vs_pose_bounds(const vs_pose *pose,
                         const vs_pose_mesh_options *options, float out_min[3],
                         float out_max[3], _Bool *out_any, vs_error *error);

typedef struct vs_context vs_context;

typedef struct vs_context_options {
    uint32_t thread_count;
    vs_allocator allocator;
} vs_context_options;

vs_result vs_context_create(const vs_context_options *options,
                            vs_context **out_context, vs_error *error);
void vs_context_free(vs_context *context);
uint32_t vs_context_thread_count(const vs_context *context);

typedef struct vs_crowd_slot {
    uint32_t node;
    uint32_t primitive;
    uint32_t vertex_count;
    size_t positions_offset;
    size_t normals_offset;
} vs_crowd_slot;

vs_result vs_crowd_layout(const vs_asset *asset, _Bool normals,
                          vs_crowd_slot *slots, uint32_t slot_capacity,
                          uint32_t *out_slot_count, size_t *out_float_count,
                          vs_error *error);

typedef struct vs_crowd_streams vs_crowd_streams;

typedef struct vs_crowd_instance {
    vs_pose *pose;
    int32_t clip;
    float time;
    vs_time_mode time_mode;
    float placement[16];
    float *output;
} vs_crowd_instance;

typedef struct vs_crowd_job {
    const vs_asset *asset;
    size_t instance_count;
    vs_crowd_instance *instances;
    _Bool normals;
    uint32_t flags;
    const vs_crowd_streams *streams;
} vs_crowd_job;

vs_result vs_crowd_run(vs_context *context, const vs_crowd_job *job,
                       vs_error *error);
"""

TOOLS = r"""
typedef enum vs_severity {
    VS_SEVERITY_ERROR = 0, VS_SEVERITY_WARNING, VS_SEVERITY_INFO,
    VS_SEVERITY_HINT
} vs_severity;

typedef struct vs_validation_issue {
    const char *code;
    vs_severity severity;
    const char *pointer;
    const char *message;
} vs_validation_issue;

typedef struct vs_validation_report {
    const char *source_name;
    vs_source_format format;
    _Bool loaded;
    uint32_t issue_count;
    const vs_validation_issue *issues;
    uint32_t counts[4];
    void *internal_;
} vs_validation_report;

typedef struct vs_validate_options {
    uint32_t max_influences;
    float weight_tolerance;
    vs_load_options load;
    uint32_t max_issues;
} vs_validate_options;

vs_result vs_validate_file(const char *path, const vs_validate_options *options,
                           vs_validation_report **out_report, vs_error *error);
vs_result vs_validate_asset(const vs_asset *asset,
                            const vs_validate_options *options,
                            vs_validation_report **out_report,
                            vs_error *error);
void vs_validation_report_free(vs_validation_report *report);
const char *vs_severity_string(vs_severity severity);

typedef struct vs_gltf_write_options {
    _Bool embed;
    _Bool keep_axes;
} vs_gltf_write_options;

typedef struct vs_gltf_write_report {
    uint32_t renormalized_normals;
    uint32_t renormalized_tangents;
    uint32_t dropped_normals;
    uint32_t dropped_tangents;
    uint32_t normalized_rotations;
    uint32_t unnormalized_weights;
    _Bool axes_corrected;
    uint32_t dropped_images;
    uint32_t clamped_colors;
} vs_gltf_write_report;

vs_result vs_write_gltf(const vs_asset *asset, const char *path,
                        const vs_gltf_write_options *options,
                        vs_gltf_write_report *report, vs_error *error);

typedef struct vs_posed_scene_options {
    vs_pose_mesh_options mesh;
    int32_t clip;
    float time;
    _Bool joints;
} vs_posed_scene_options;

vs_result vs_write_pose(const vs_pose *pose, const char *path,
                        const vs_posed_scene_options *options, vs_error *error);

typedef struct vs_bake_clip_options {
    vs_pose_mesh_options mesh;
    float fps;
    vs_interpolation interpolation;
} vs_bake_clip_options;

vs_result vs_bake_pose(const vs_pose *pose, const vs_pose_mesh_options *options,
                       vs_asset **out_asset, vs_error *error);
vs_result vs_bake_clip_morph(const vs_asset *asset, uint32_t clip,
                             const vs_bake_clip_options *options,
                             vs_asset **out_asset, vs_error *error);
vs_result vs_bake_vat_write(const vs_asset *asset, uint32_t clip,
                            const vs_bake_clip_options *options,
                            const char *base, vs_error *error);
"""

RENDER = r"""
typedef struct vs_renderer vs_renderer;

typedef enum vs_render_view {
    VS_VIEW_SHADED = 0, VS_VIEW_OUTLINE, VS_VIEW_WEIGHTS, VS_VIEW_JOINTS,
    VS_VIEW_NORMALS
} vs_render_view;

typedef enum vs_upload_path {
    VS_UPLOAD_AUTO = 0, VS_UPLOAD_UNIFORMS, VS_UPLOAD_TEXTURE
} vs_upload_path;

typedef struct vs_camera {
    float eye[3];
    float target[3];
    float up[3];
    float fov_y;
    _Bool orthographic;
    float ortho_height;
    float near_plane;
    float far_plane;
} vs_camera;

typedef struct vs_render_desc {
    uint32_t width, height;
    vs_render_view view;
    _Bool skeleton;
    const vs_camera *camera;
    _Bool orthographic;
    vs_upload_path upload;
    _Bool has_background;
    float background[4];
    uint32_t skin_flags;
    vs_skin_method method;
} vs_render_desc;

vs_result vs_renderer_create(const vs_asset *asset, vs_renderer **out_renderer,
                             vs_error *error);
void vs_renderer_destroy(vs_renderer *renderer);
const char *vs_renderer_gl_renderer(const vs_renderer *renderer);
vs_result vs_render_pose(vs_renderer *renderer, const vs_pose *pose,
                         const vs_render_desc *desc, uint8_t *rgba_out,
                         vs_error *error);
"""

# The structs test_layout.py compares with the compiled headers.
STRUCTS = [
    "vs_error", "vs_trs", "vs_node", "vs_morph_target", "vs_primitive",
    "vs_mesh", "vs_material", "vs_skin", "vs_anim_sampler", "vs_anim_channel",
    "vs_clip", "vs_scene", "vs_asset", "vs_allocator", "vs_file_reader",
    "vs_limits", "vs_load_options", "vs_posed_primitive",
    "vs_pose_mesh_options", "vs_context_options", "vs_crowd_slot",
    "vs_crowd_instance", "vs_crowd_job", "vs_validation_issue",
    "vs_validation_report", "vs_validate_options", "vs_gltf_write_options",
    "vs_gltf_write_report", "vs_posed_scene_options", "vs_bake_clip_options",
    "vs_camera", "vs_render_desc", "vs_sampler", "vs_texture_ref", "vs_image",
    "vs_warning",
]
