// Transports between host devices, one file each under comm/host/:
// devices are teams of CPU threads sharing memory, so an exchange is a
// memcpy per (sender, receiver) pair, or none (host_view). Which side
// copies changes who waits on whom.
#pragma once

#include <memory>

#include "comm/transport.h"

namespace chatty {

std::unique_ptr<Transport> make_host_copy_transport();
std::unique_ptr<Transport> make_host_read_transport();
std::unique_ptr<Transport> make_host_view_transport();

}  // namespace chatty
