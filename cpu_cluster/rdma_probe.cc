// Whether this machine has an RDMA device for the verbs data path. The
// verbs library is opened at run time, so chatty starts where rdma-core is
// not installed; every failure is a reason, never an error.
#include <dlfcn.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>

#include "cpu_cluster/cluster.h"

namespace chatty {

RdmaProbe probe_rdma() {
  RdmaProbe p;
  void* lib = dlopen("libibverbs.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    p.reason = "no libibverbs (rdma-core is not installed)";
    return p;
  }
  using List = void** (*)(int*);
  using Free = void (*)(void**);
  using Name = const char* (*)(void*);
  auto list = reinterpret_cast<List>(dlsym(lib, "ibv_get_device_list"));
  auto free_list = reinterpret_cast<Free>(dlsym(lib, "ibv_free_device_list"));
  auto name = reinterpret_cast<Name>(dlsym(lib, "ibv_get_device_name"));
  if (!list || !free_list || !name) {
    p.reason = "libibverbs lacks ibv_get_device_list";
    dlclose(lib);
    return p;
  }
  int count = 0;
  errno = 0;
  void** devices = list(&count);
  if (!devices) {
    p.reason = std::string("ibv_get_device_list: ") + std::strerror(errno ? errno : ENODEV);
  } else {
    for (int i = 0; i < count; ++i) {
      if (i) p.devices += ',';
      p.devices += name(devices[i]);
    }
    if (count == 0) p.reason = "no RDMA device";
    free_list(devices);
  }
  dlclose(lib);
  return p;
}

GpuRingPlacement place_gpu_rings(const RdmaProbe& rdma, Net net) {
  GpuRingPlacement g{"pinned host memory (staged)", ""};
  std::error_code ec;
  if (rdma.devices.empty())
    g.why = "no RDMA device (" + rdma.reason + ")";
  else if (!std::filesystem::exists("/sys/module/nvidia_peermem", ec) &&
           !std::filesystem::exists("/sys/module/nv_peer_mem", ec))
    g.why = "no nvidia-peermem module to register GPU memory with " + rdma.devices;
  else if (net != Net::kVerbs)
    g.why =
        "GPUDirect RDMA could serve " + rdma.devices + ", but --net=mpi exchanges through MPI windows in host memory";
  else
    g.why = "the verbs data path that would register GPU memory is not built";
  return g;
}

}  // namespace chatty
