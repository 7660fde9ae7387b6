// Ray tracing (SPV_KHR_ray_tracing): an incoming payload, callable data with executeCallableEXT, hit attributes, the shader record buffer.
#version 460
#extension GL_EXT_ray_tracing : require
layout(location = 0) rayPayloadInEXT vec4 payload;
layout(location = 1) callableDataEXT float scale;
hitAttributeEXT vec2 bary;
layout(shaderRecordEXT, std430) buffer SBT { vec4 color; } sbt;
void main() {
  scale = gl_HitTEXT;
  executeCallableEXT(0, 1);
  payload = sbt.color * scale + vec4(bary, gl_WorldRayDirectionEXT.z, float(gl_InstanceCustomIndexEXT));
}
